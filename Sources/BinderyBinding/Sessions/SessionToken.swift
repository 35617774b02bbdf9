/// Session log names (the token itself is a ``SessionSecret``).
enum SessionToken {
    /// A short random name that says nothing about the token.
    static func makeLogID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(hex(generator.next() as UInt64).prefix(8))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
