import Foundation

/// A store that announces committed view-model writes, for nodes sharing it: each node refreshes
/// its cached copies and pushes to its watchers. Only the nodes that hold a space hear of the
/// writes other nodes commit there. ``PostgresStore`` is one.
package protocol ChangeFeed: SessionStateStore {
    /// A new stream of the view-model writes other nodes commit in the spaces this node holds
    /// (``hold(_:)``; never this node's own writes), and of every node's announcements. Its first
    /// element is ``StoreChange/resynchronize`` once the feed is listening; every later
    /// `resynchronize` says that notifications may have been missed (the connection dropped and
    /// was re-established), so the caller catches up its view models from the store. Ends when
    /// the store closes.
    func changes() -> AsyncStream<StoreChange>

    /// This node now keeps `space` (a session's token hash, or a record space) in memory: from the
    /// moment this returns, every view-model write another node commits in `space` arrives on this
    /// node's change streams, and a read started after it returns sees every write committed before
    /// the first such notification could be missed. Call it before reading the space. Idempotent.
    func hold(_ space: SessionTokenHash) async throws

    /// This node no longer keeps `space`: other nodes' writes there stop being sent to it. Idempotent.
    func release(_ space: SessionTokenHash) async throws

    /// The newest committed record of one view model, or `nil` when there is none.
    func viewModel(_ key: ViewModelKey) async throws -> ViewModelRecord?

    /// Renews this node's leases on the deferred commands it runs (`commands[key]` is the
    /// command's name) at `time`: a command still recorded as running under that name gets
    /// `time` as its ``DeferredCommand/renewedAt``; anything else is left alone.
    func renewCommandLeases(_ commands: [ViewModelKey: String], at time: Date) async throws

    /// Tells every node (this one included) something ephemeral that is not stored, such as who
    /// is on a screen: it arrives on their change streams as ``StoreChange/announcement(_:)``.
    /// At most ``maxAnnouncementLength`` UTF-8 bytes.
    func announce(_ message: String) async throws
}

extension ChangeFeed {
    /// Gives up this node's leases on `commands` (at shutdown): they read as lapsed at once, so
    /// the other nodes show them interrupted at their next check.
    package func releaseCommandLeases(_ commands: [ViewModelKey: String]) async throws {
        try await renewCommandLeases(commands, at: Date(timeIntervalSince1970: 0))
    }
}

/// One element of a change stream.
package enum StoreChange: Hashable, Sendable {
    /// A view model was committed at a version.
    case changed(ViewModelChange)
    /// Changes may have been missed: reload what you watch (from the version log or the record).
    case resynchronize
    /// A message a node announced with ``ChangeFeed/announce(_:)``.
    case announcement(String)
}

/// The longest announcement, in UTF-8 bytes (PostgreSQL's NOTIFY takes under 8,000).
package let maxAnnouncementLength = 4000

/// A committed view-model write, as announced: keys only, never the state.
package struct ViewModelChange: Hashable, Sendable, CustomStringConvertible {
    /// Which view model was written.
    package var key: ViewModelKey
    /// The version that was committed.
    package var version: Int
    /// The id of the node that committed it.
    package var node: String

    /// A change.
    package init(key: ViewModelKey, version: Int, node: String) {
        self.key = key
        self.version = version
        self.node = node
    }

    /// `SESSION/PATH@VERSION by NODE`.
    package var description: String { "\(key)@\(version) by \(node)" }

    /// The notification payload: `<session hash hex> <path> <version> <node>`, under 200 bytes for
    /// the paths Bindery uses. A path may contain spaces: the last two fields are split off first.
    var payload: String {
        "\(key.session.bytes.map { String(format: "%02x", $0) }.joined()) \(key.path) \(version) \(node)"
    }

    /// Parses a payload; `nil` for anything malformed.
    init?(payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 4, let version = Int(fields[fields.count - 2]),
            let session = Self.hash(fromHex: fields[0])
        else { return nil }
        let path = fields[1..<(fields.count - 2)].joined(separator: " ")
        self.init(key: ViewModelKey(session: session, path: path), version: version, node: String(fields[fields.count - 1]))
    }

    private static func hash(fromHex hex: Substring) -> SessionTokenHash? {
        guard hex.count == SessionTokenHash.byteCount * 2 else { return nil }
        var bytes = Data(capacity: SessionTokenHash.byteCount)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return SessionTokenHash(bytes: bytes)
    }
}
