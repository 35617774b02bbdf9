import BinderyHTTP
import BinderyRuntime

/// Every check, run on one input: part 0 is a body and a path, part 1 a second body and a
/// header value, part 2 a patch and a header value, part 3 a header value and a path.
enum FuzzChecks {
    /// Runs every check on `bytes` (a broken invariant traps) and returns a fingerprint of what the
    /// parsers made of it: the bodies as written back, or refused, and the header verdicts. Two
    /// replays of one corpus print the same fingerprints, whatever the process's hash seed.
    @discardableResult
    static func run(_ bytes: [UInt8]) -> UInt64 {
        let input = FuzzInput(bytes)
        var fingerprint = Fingerprint()
        let old = JSONChecks.check(input.parts[0])
        let new = JSONChecks.check(input.parts[1])
        let operations = input.parts[2].isEmpty ? nil : JSONChecks.check(input.parts[2])
        for body in [old, new, operations] {
            fingerprint.add(body.map { JSONWriter.bytes(of: $0) } ?? Array("refused".utf8))
        }
        if let old, let new {
            PatchChecks.check(old: old, new: new, operations: operations)
        }
        for index in [0, 3] {
            PathChecks.check(input.text(index))
            StaticFileChecks.check(input.text(index))
        }
        for index in 1...3 {
            HeaderChecks.check(input.text(index))
            fingerprint.add(Array("\(MediaType.isJSON(input.text(index))) \(String(describing: EntityTagCondition(header: input.text(index))))".utf8))
        }
        return fingerprint.value
    }
}

/// FNV-1a over what the checks saw: a short, stable digest (no hashing seed involved).
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds `bytes` and a separator.
    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes + [0xFF] {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }
}
