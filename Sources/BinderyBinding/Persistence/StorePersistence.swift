import BinderyRuntime
import BinderyStore
import Foundation

/// One session's view-model versions committed to the durable store: the bridge between the
/// runtime's ``ViewModelPersistence`` and a ``SessionStateStore``.
///
/// Two words and a hash: small enough to live inside the graph's existential without a box of its
/// own (what every session of a store shares is one ``Context``).
struct StorePersistence: ViewModelPersistence {
    /// What the sessions of one store share.
    final class Context: Sendable {
        let store: any SessionStateStore
        let now: @Sendable () -> Date
        /// How long a command recorded as running on a shared store outlives its last lease renewal.
        let commandLease: TimeInterval
        let metrics: BinderyMetrics?
        /// What the values of sensitive inputs are sealed with in the store.
        let sealing: SealingKey

        init(
            store: any SessionStateStore, now: @escaping @Sendable () -> Date, commandLease: TimeInterval, metrics: BinderyMetrics?,
            sealing: SealingKey
        ) {
            self.store = store
            self.now = now
            self.commandLease = commandLease
            self.metrics = metrics
            self.sealing = sealing
        }
    }

    let context: Context
    let session: SessionTokenHash

    private var store: any SessionStateStore { context.store }
    private var commandLease: TimeInterval { context.commandLease }
    private var metrics: BinderyMetrics? { context.metrics }
    private func now() -> Date { context.now() }

    /// Commits `versions` in one store transaction. The store's refusals become the port's: a
    /// version conflict ``ViewModelError/versionConflict``, any other failure
    /// ``ViewModelError/storeUnavailable``.
    func commit(_ versions: [CommittedVersion]) async throws(ViewModelError) {
        let started = ContinuousClock.now
        var outcome = "committed"
        defer { metrics?.storeCommit(duration: ContinuousClock.now - started, outcome: outcome) }
        let at = now()
        let writes: [ViewModelWrite]
        do {
            writes = try versions.map { version in
                let key = ViewModelKey(session: session, path: version.path)
                return ViewModelWrite(
                    key: key,
                    expected: version.expected,
                    version: version.snapshot.version,
                    state: try StoredJSON.encode(
                        SealedMembers.seal(version.state, members: version.sealedMembers, key: context.sealing, place: key)
                    ),
                    // A view model with a sensitive input logs its snapshots masked: the secret never
                    // reaches the store.
                    snapshot: Data(version.loggedSnapshot ?? version.snapshot.bytes),
                    runningCommand: version.runningCommand.map { DeferredCommand(name: $0, startedAt: at) },
                    at: at, claim: Self.claim(of: version), shape: version.shape?.description
                )
            }
        } catch {
            // A state that cannot be encoded never reaches the store.
            outcome = "failed"
            throw .storeUnavailable
        }
        do {
            try await store.commit(writes)
        } catch StoreError.conflict {
            outcome = "conflict"
            throw .versionConflict
        } catch {
            outcome = "failed"
            throw .storeUnavailable
        }
    }

    /// The idempotency key a version claims: none for one that shows a command's work still
    /// running (see ``RequestClaim/isCommand``).
    private static func claim(of version: CommittedVersion) -> IdempotencyClaim? {
        guard let claim = version.claim, !(claim.isCommand && version.runningCommand != nil) else { return nil }
        return IdempotencyClaim(claim)
    }

    func latest(of path: String) async throws -> RestoredViewModel? {
        let key = ViewModelKey(session: session, path: path)
        let records =
            if let feed = store.capabilities.changeFeed {
                try await feed.viewModel(key).map { [$0] } ?? []
            } else {
                try await store.viewModels(of: session).filter { $0.key.path == path }
            }
        return Self.restored(from: records, store: store, now: now(), lease: commandLease, sealing: context.sealing)[path]
    }

    func versions(of path: String, after version: Int) async throws -> [EncodedSnapshot]? {
        switch try await store.versions(of: ViewModelKey(session: session, path: path), after: version) {
        case .versions(let logged):
            logged.map { EncodedSnapshot(path: path, version: $0.version, bytes: [UInt8]($0.snapshot)) }
        case .unavailable:
            nil
        }
    }

    /// What the store holds of the session's view models, as the runtime restores them.
    ///
    /// A command recorded as running: on an embedded store (one process) it belonged to a process
    /// that is gone, so it comes back interrupted. On a shared store (several nodes:
    /// ``StoreCapabilities/isShared``) another node may still be running it: it shows as running
    /// there until its lease lapses (`lease` seconds after that node last renewed it), then as
    /// interrupted.
    /// Sensitive values sealed with `sealing` come back opened (others are left out).
    static func restored(
        from records: [ViewModelRecord], store: any SessionStateStore, now: Date, lease: TimeInterval, sealing: SealingKey
    ) -> [String: RestoredViewModel] {
        let shared = store.capabilities.isShared
        var restored: [String: RestoredViewModel] = [:]
        for record in records {
            var interrupted: String?
            var running: String?
            switch record.command {
            case .interrupted(let command)?:
                interrupted = command.name
            case .running(let command)? where !shared || now.timeIntervalSince(command.renewedAt) > lease:
                interrupted = command.name
            case .running(let command)?:
                running = command.name
            case nil:
                break
            }
            let state = (try? StoredJSON.decode(record.state)).map { SealedMembers.open($0, key: sealing, place: record.key) }
            restored[record.key.path] = RestoredViewModel(
                version: record.version, state: state ?? .null,
                interruptedCommand: interrupted, runningCommand: running, shape: record.shape.flatMap(StoredShape.init(parsing:))
            )
        }
        return restored
    }
}

/// JSON as the store keeps it: compact, keys sorted.
enum StoredJSON {
    static func encode(_ value: JSONValue) throws -> Data {
        Data(JSONWriter.bytes(of: value))
    }

    static func decode(_ data: Data) throws -> JSONValue {
        try JSONValue(parsing: [UInt8](data))
    }
}
