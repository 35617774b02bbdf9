// The executable's two modes over the same checks. Built for fuzzing (`scripts/fuzz` passes
// -sanitize=fuzzer and -DBINDERY_FUZZ), `main` hands over to libFuzzer's driver; in an ordinary
// build it replays the files it is given (the corpus, the regressions, a saved crash), each once,
// in the order given, and prints one line per file: its name and the fingerprint of what the
// parsers made of it (`scripts/fuzz-replay` compares two replays).
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

/// `bindery-fuzz FILE...`: runs the checks on each file and prints `FILE ok FINGERPRINT` (or,
/// built for fuzzing, runs libFuzzer with its usual arguments).
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
            // The name goes out first, so a broken invariant's trap follows the file that broke it.
            FileHandle.standardOutput.write(Data("\(path) ".utf8))
            let fingerprint = FuzzChecks.run(bytes)
            FileHandle.standardOutput.write(Data("ok \(String(fingerprint, radix: 16))\n".utf8))
        }
        #endif
    }
}
