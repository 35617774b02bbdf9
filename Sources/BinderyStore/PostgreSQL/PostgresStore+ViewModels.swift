import Foundation
import PostgresNIO

/// View models: load, commit with version checks, version log, interrupted commands.
extension PostgresStore {
    /// Every view-model record of the session, ordered by path.
    package func viewModels(of tokenHash: SessionTokenHash) async throws -> [ViewModelRecord] {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT path, version, state, command_name, command_started_at, command_interrupted,
                    command_renewed_at, shape
                FROM bindery_view_model WHERE session = \(tokenHash.bytes)
                """,
                logger: logger
            )
            return try await Self.records(rows, session: tokenHash).sorted { $0.key.path < $1.key.path }
        }
    }

    /// The newest committed record of one view model, or `nil` when it has none (or its session is
    /// gone): what a node reads to refresh a cached copy after a change notification.
    package func viewModel(_ key: ViewModelKey) async throws -> ViewModelRecord? {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT path, version, state, command_name, command_started_at, command_interrupted,
                    command_renewed_at, shape
                FROM bindery_view_model WHERE session = \(key.session.bytes) AND path = \(key.path)
                """,
                logger: logger
            )
            return try await Self.records(rows, session: key.session).first
        }
    }

    /// Applies a batch of writes all together or not at all.
    package func commit(_ writes: [ViewModelWrite]) async throws {
        guard !writes.isEmpty else { return }
        let context = WriteContext(policy: logPolicy, nodeID: nodeID, ownChannel: holder.channel, logger: logger)
        // In key order (versions of one key in their order), whatever order the graph rendered
        // them in: nodes committing the same view models then lock their rows in the same order.
        let ordered = writes.sorted { $0.key == $1.key ? $0.version < $1.version : $0.key.precedes($1.key) }
        try await committer.submit(writes: ordered, context: context)
    }

    /// Every version of a view model the log still holds, oldest first.
    package func loggedVersions(of key: ViewModelKey) async throws -> [LoggedVersion] {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT version, snapshot, logged_at FROM bindery_version_log
                WHERE session = \(key.session.bytes) AND path = \(key.path) ORDER BY version
                """,
                logger: logger
            )
            var entries: [LoggedVersion] = []
            for try await (version, snapshot, loggedAt) in rows.decode((Int, Data, Double).self) {
                entries.append(LoggedVersion(version: version, snapshot: snapshot, loggedAt: Date(storeValue: loggedAt)))
            }
            return entries
        }
    }

    /// The logged versions of a view model after `version`, read in one statement (one snapshot).
    package func versions(of key: ViewModelKey, after version: Int) async throws -> VersionHistory {
        try await read { client in
            let rows = try await client.query(
                """
                SELECT m.version, m.log_floor, l.version, l.snapshot, l.logged_at
                FROM bindery_view_model m
                LEFT JOIN bindery_version_log l
                    ON l.session = m.session AND l.path = m.path AND l.version > \(version)
                WHERE m.session = \(key.session.bytes) AND m.path = \(key.path)
                ORDER BY l.version
                """,
                logger: logger
            )
            var current: (version: Int, floor: Int)?
            var entries: [LoggedVersion] = []
            for try await (stored, floor, logged, snapshot, loggedAt) in rows.decode(
                (Int, Int, Int?, Data?, Double?).self
            ) {
                current = (stored, floor)
                if let logged, let snapshot, let loggedAt {
                    entries.append(LoggedVersion(version: logged, snapshot: snapshot, loggedAt: Date(storeValue: loggedAt)))
                }
            }
            guard let current, version >= current.floor, version <= current.version else { return .unavailable }
            return .versions(entries)
        }
    }

    /// Renews this node's leases on the commands it runs, in one transaction; a view model whose
    /// command ended or was interrupted meanwhile is left alone.
    package func renewCommandLeases(_ commands: [ViewModelKey: String], at time: Date) async throws {
        guard !commands.isEmpty else { return }
        let logger = self.logger
        try await committer.submit { connection in
            for (key, name) in commands {
                try await connection.query(
                    """
                    UPDATE bindery_view_model SET command_renewed_at = \(time.storeValue)
                    WHERE session = \(key.session.bytes) AND path = \(key.path)
                        AND command_name = \(name) AND NOT command_interrupted
                    """,
                    logger: logger
                )
            }
        }
    }

    /// Marks every running deferred command interrupted, whichever node started it.
    package func markRunningCommandsInterrupted() async throws -> [ViewModelKey] {
        let logger = self.logger
        return try await committer.submit { connection in
            let rows = try await connection.query(
                """
                UPDATE bindery_view_model SET command_interrupted = true
                WHERE command_name IS NOT NULL AND NOT command_interrupted
                RETURNING session, path
                """,
                logger: logger
            )
            var keys: [ViewModelKey] = []
            for try await (session, path) in rows.decode((Data, String).self) {
                if let hash = SessionTokenHash(bytes: session) {
                    keys.append(ViewModelKey(session: hash, path: path))
                }
            }
            return keys.sorted { $0.precedes($1) }
        }
    }

    private static func records(
        _ rows: PostgresRowSequence, session: SessionTokenHash
    ) async throws
        -> [ViewModelRecord]
    {
        var records: [ViewModelRecord] = []
        for try await (path, version, state, name, startedAt, interrupted, renewedAt, shape) in rows.decode(
            (String, Int, Data, String?, Double?, Bool, Double?, String?).self
        ) {
            var command: CommandState?
            if let name, let startedAt {
                let deferred = DeferredCommand(
                    name: name, startedAt: Date(storeValue: startedAt), renewedAt: renewedAt.map(Date.init(storeValue:))
                )
                command = interrupted ? .interrupted(deferred) : .running(deferred)
            }
            records.append(
                ViewModelRecord(
                    key: ViewModelKey(session: session, path: path), version: version, state: state, command: command, shape: shape
                )
            )
        }
        return records
    }
}
