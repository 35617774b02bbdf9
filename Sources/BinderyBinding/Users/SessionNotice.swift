import BinderyStore
import Foundation

/// What a node tells the others about sessions (over the store's change feed, never stored):
/// the sessions it ended (a sign-out), which the others drop from memory, and the tokens it
/// replaced (a sign-in), whose copies the others drop — a copy already loaded under the new token
/// stays. A dropped session that still exists comes back from the store on its next request,
/// under its new token only.
struct SessionNotice: Codable, Sendable {
    /// The node that announces it, which ignores its own.
    var node: String
    /// The keys of the sessions to drop, as hex; for a replaced token, `<key>:<old credential>`.
    var dropped: [String]

    /// The most keys one notice names (a notification carries at most 4,000 bytes).
    static let maxKeys = 50

    /// The notices naming `drops`, from `node`, as JSON texts: each a session's key and, when only
    /// the copies held under one token go, that token's hash (its old credential).
    static func texts(dropping drops: [Drop], from node: String) -> [String] {
        stride(from: 0, to: drops.count, by: maxKeys).compactMap { start in
            let chunk = drops[start..<min(drops.count, start + maxKeys)]
            let notice = SessionNotice(
                node: node,
                dropped: chunk.map { drop in
                    hex(drop.key) + (drop.credential.map { ":" + hex($0) } ?? "")
                })
            return (try? JSONEncoder().encode(notice)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A session to drop: every copy (`credential` nil), or those held under one token.
    struct Drop: Sendable, Hashable {
        /// The session's key.
        var key: SessionTokenHash
        /// The hash of the token whose copies go; nil: all of them.
        var credential: SessionTokenHash?
    }

    private static func hex(_ hash: SessionTokenHash) -> String {
        hash.bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The notice in `text`, if it is one.
    init?(text: String) {
        guard let notice = try? JSONDecoder().decode(SessionNotice.self, from: Data(text.utf8)) else { return nil }
        self = notice
    }

    private init(node: String, dropped: [String]) {
        self.node = node
        self.dropped = dropped
    }

    /// The sessions it names.
    var drops: [Drop] {
        dropped.compactMap { entry in
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let key = Self.hash(parts[0]) else { return nil }
            guard parts.count == 2 else { return Drop(key: key, credential: nil) }
            return Self.hash(parts[1]).map { Drop(key: key, credential: $0) }
        }
    }

    private static func hash(_ hex: Substring) -> SessionTokenHash? {
        var bytes = Data(capacity: SessionTokenHash.byteCount)
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return SessionTokenHash(bytes: bytes)
    }
}
