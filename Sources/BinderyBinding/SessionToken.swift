/// Makes session tokens and log names from the system's cryptographic random source.
enum SessionToken {
    /// 128 random bits as 32 lowercase hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next() as UInt64) + hex(generator.next() as UInt64)
    }

    /// A short random name that says nothing about the token.
    static func makeLogID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(hex(generator.next() as UInt64).prefix(8))
    }

    /// Whether `text` has the shape of a token (so junk is refused before any lookup).
    static func isWellFormed(_ text: Substring) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
