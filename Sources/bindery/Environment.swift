import Foundation

/// Reads `BINDERY_*` environment variables as option defaults.
enum Environment {
    /// The variable's value, if set and not empty.
    static func string(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The variable as an integer.
    static func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    /// The variable as an unsigned 64-bit integer.
    static func uint64(_ name: String) -> UInt64? { string(name).flatMap { UInt64($0) } }

    /// The variable as a floating-point number.
    static func double(_ name: String) -> Double? { string(name).flatMap { Double($0) } }
}
