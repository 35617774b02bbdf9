import Foundation

/// Reads environment variables as option defaults, the way ``ServeOptions`` reads `BINDERY_*`:
/// an unset or empty variable is nil.
///
/// ```swift
/// @Option var greeting: String = OptionEnvironment.string("COUNTER_GREETING") ?? "Hello"
/// ```
public enum OptionEnvironment {
    /// The variable's value, if set and not empty.
    public static func string(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The variable as an integer.
    public static func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    /// The variable as an unsigned 64-bit integer.
    public static func uint64(_ name: String) -> UInt64? { string(name).flatMap { UInt64($0) } }

    /// The variable as a flag: `1` or `true` set it.
    public static func flag(_ name: String) -> Bool { string(name).map { $0 == "1" || $0 == "true" } ?? false }

    /// The variable as a floating-point number.
    public static func double(_ name: String) -> Double? { string(name).flatMap { Double($0) } }
}
