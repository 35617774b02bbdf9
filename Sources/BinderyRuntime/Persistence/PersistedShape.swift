import Synchronization

/// What a declaration persists, as the store checks it: the persisted version its migrations
/// state, a fingerprint derived from the names and types of what persists, and how to read state
/// stored by an earlier shape (migrate it, then check that reading it loses nothing).
///
/// Every stored state carries the version and fingerprint that wrote it. State stored with the
/// current ones is read as it is; any other is migrated from its version and checked member by
/// member, so a change goes noticed even when no migration was declared for it: a renamed member,
/// a changed type or a new non-optional field fails the check instead of being dropped.
public struct PersistedShape: Sendable {
    /// The version state is stored at now: 1 + the number of migrations.
    public let version: Int
    /// A digest of what persists (member names, input schemas, value types); it changes whenever
    /// they do.
    public let fingerprint: String
    /// The migrations, oldest first: the first turns version 1 into 2.
    public let migrations: [PersistedMigration]
    /// Whether the fingerprint cannot vouch for stored state (a custom `PersistedState`, or a
    /// value type described by its name only): every stored state of it is then checked.
    public let isOpaque: Bool
    /// The description the fingerprint digests.
    let description: JSONValue
    /// Why reading `state` (at the current version) would lose something: the member and the
    /// reason; nil when nothing would be lost.
    let check: @Sendable (_ state: JSONValue) -> (member: String, reason: String)?

    init(
        description: JSONValue, migrations: [PersistedMigration], isOpaque: Bool,
        check: @escaping @Sendable (JSONValue) -> (member: String, reason: String)?
    ) {
        self.version = migrations.count + 1
        self.migrations = migrations
        self.isOpaque = isOpaque
        self.description = description
        self.check = check
        self.fingerprint = Self.digest(JSONWriter.bytes(of: .object(["version": .int(migrations.count + 1), "shape": description])))
    }

    /// The shape as the store keeps it beside state written now.
    package var stored: StoredShape { StoredShape(version: version, fingerprint: fingerprint) }

    /// `state`, stored at persisted version `version`, as this declaration reads it: migrated to
    /// the current version and checked to lose nothing. Tests of migrations and of restoring old
    /// state call it (``PersistedMigration``).
    public func read(_ state: JSONValue, storedAtVersion version: Int) throws(PersistedStateError) -> JSONValue {
        try read(state, storedAs: StoredShape(version: version, fingerprint: "")).state
    }

    /// `state`, stored with `shape` (nil: before shapes were kept, so version 1), as this
    /// declaration reads it, and whether it was stored by another shape or migrated (the restored
    /// view model then gets a new version: it may render differently).
    package func read(_ state: JSONValue, storedAs shape: StoredShape?) throws(PersistedStateError) -> (state: JSONValue, upgraded: Bool) {
        let current = shape == stored
        if current, !isOpaque { return (state, false) }
        let storedVersion = shape?.version ?? 1
        guard storedVersion <= version else { throw .newer(storedVersion: storedVersion, knownVersion: version) }
        var migrated = state
        for migration in migrations[max(0, storedVersion - 1)...] {
            do {
                migrated = try migration.migrate(migrated)
            } catch {
                throw .migrationFailed(storedVersion: storedVersion, migration: migration.summary, reason: "\(error)")
            }
        }
        if let loss = check(migrated) {
            throw .unreadable(storedVersion: storedVersion, member: loss.member, reason: loss.reason)
        }
        // State kept before shapes were (no shape, version 1) and read by a declaration with no
        // migration is read as that build read it: it keeps its version. Anything else stored by
        // another shape may render differently: a new version.
        return (migrated, !current && (shape != nil || storedVersion < version))
    }

    /// FNV-1a, 64 bits, in hex: a change detector, not a secret (nothing to guard against), and
    /// the same on every platform and build, which Swift's `Hasher` is not.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Each declaration's shape, derived once (probing value types and digesting is not free, and a
/// commit needs the shape of every version it writes).
enum PersistedShapes {
    private static let cache = Mutex<[ObjectIdentifier: PersistedShape]>([:])

    /// The shape of the declaration of the type `key` (one declaration per type), made once.
    static func shape(of key: ObjectIdentifier, make: () -> PersistedShape) -> PersistedShape {
        if let known = cache.withLock({ $0[key] }) { return known }
        let made = make()
        cache.withLock { $0[key] = made }
        return made
    }
}
