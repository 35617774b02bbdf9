/// A session token's 128 random bits, as live sessions are found by: 16 bytes inline, where
/// the token's text (32 hex digits) would take an allocation of its own in every session.
struct SessionSecret: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// A new secret from the system's cryptographic random source.
    static func random() -> SessionSecret {
        var generator = SystemRandomNumberGenerator()
        return SessionSecret(high: generator.next(), low: generator.next())
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The secret a token shows; nil unless it is 32 lowercase hex digits (so junk is refused
    /// before any lookup, and a secret has exactly one token).
    init?(token: Substring) {
        let utf8 = token.utf8
        guard utf8.count == 32 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in utf8.enumerated() {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            if index < 16 { high = high << 4 | digit } else { low = low << 4 | digit }
        }
        self.init(high: high, low: low)
    }

    /// The token: 32 lowercase hex digits.
    var token: String {
        Self.hex(high) + Self.hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
