import Crypto
import Foundation

/// The key the values of sensitive inputs (`.sensitive()`, a password) are kept
/// with in the store: sealed with AES-GCM, never in plain text. Nodes that share a store share the
/// key (`--sealing-key`, `BINDERY_SEALING_KEY`), so a password typed on one node is there on the
/// next; a restart with the same key finds it too.
///
/// Without one, each process makes its own: a sensitive value then lasts only as long as the
/// process that sealed it (another node, or a restart, shows the input as the view model starts
/// it: empty).
///
/// ```swift
/// var configuration = BinderyConfiguration()
/// configuration.sealingKey = SealingKey(hex: ProcessInfo.processInfo.environment["MY_KEY"] ?? "")
/// ```
public struct SealingKey: Sendable {
    /// The key's 32 bytes (Crypto's `SymmetricKey` is not `Sendable`: one is made where it is used).
    private let bytes: [UInt8]

    /// The key as Crypto takes it.
    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// The key of 64 hex digits (256 bits); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// A new random key (256 bits, the system's cryptographic random source).
    public static func random() -> SealingKey {
        var generator = SystemRandomNumberGenerator()
        return SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}

extension SealingKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never the key: printing or logging a configuration shows no secret.
    public var description: String { "SealingKey(***)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// Nothing of the key: `dump` and debuggers show no bytes either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
