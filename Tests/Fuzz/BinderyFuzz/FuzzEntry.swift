// The executable's two modes over the same checks. Built for fuzzing (`scripts/fuzz` passes
// -sanitize=fuzzer and -DBINDERY_FUZZ), `main` hands over to libFuzzer's driver; in an ordinary
// build it replays the files it is given (the seed corpus, a saved crash).
import Foundation

/// libFuzzer's entry point: one input per call; an invariant that does not hold traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzChecks.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if BINDERY_FUZZ
/// libFuzzer's driver (`-sanitize=fuzzer` links it). SwiftPM names the executable's entry point
/// itself on Linux, so libFuzzer's own `main` cannot be used: this `main` calls its driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// `bindery-fuzz FILE...`: runs the checks on each file (or, built for fuzzing, runs libFuzzer
/// with its usual arguments).
@main
enum FuzzMain {
    static func main() throws {
        #if BINDERY_FUZZ
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        #else
        for path in CommandLine.arguments.dropFirst() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            FuzzChecks.run(bytes)
            print("ok \(path)")
        }
        #endif
    }
}
