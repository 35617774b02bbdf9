import Logging
import PostgresNIO

/// The tables, created or migrated at start-up in one transaction that holds an advisory lock, so
/// several nodes starting at once run each migration exactly once. Deleting a session cascades.
extension PostgresStore {
    /// The advisory lock key of the migrations ("bindery" in ASCII).
    static let migrationLock: Int64 = 0x62_69_6e_64_65_72_79

    /// Named migrations, applied in order and recorded in `bindery_migration`; never edit one that
    /// shipped, add another.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1",
            [
                """
                CREATE TABLE IF NOT EXISTS bindery_session (
                    token_hash bytea PRIMARY KEY,
                    created_at double precision NOT NULL,
                    last_used_at double precision NOT NULL
                )
                """,
                """
                CREATE INDEX IF NOT EXISTS bindery_session_by_use
                    ON bindery_session (last_used_at, created_at, token_hash)
                """,
                """
                CREATE TABLE IF NOT EXISTS bindery_view_model (
                    session bytea NOT NULL REFERENCES bindery_session (token_hash) ON DELETE CASCADE,
                    path text NOT NULL,
                    version bigint NOT NULL,
                    state bytea NOT NULL,
                    command_name text,
                    command_started_at double precision,
                    command_interrupted boolean NOT NULL DEFAULT false,
                    log_floor bigint NOT NULL,
                    PRIMARY KEY (session, path)
                )
                """,
                """
                CREATE TABLE IF NOT EXISTS bindery_version_log (
                    session bytea NOT NULL,
                    path text NOT NULL,
                    version bigint NOT NULL,
                    snapshot bytea NOT NULL,
                    logged_at double precision NOT NULL,
                    PRIMARY KEY (session, path, version),
                    FOREIGN KEY (session, path) REFERENCES bindery_view_model (session, path) ON DELETE CASCADE
                )
                """,
            ]
        ),
        (
            "v2 command leases",
            [
                "ALTER TABLE bindery_view_model ADD COLUMN IF NOT EXISTS command_renewed_at double precision"
            ]
        ),
        (
            "v3 idempotency keys",
            [
                """
                CREATE TABLE IF NOT EXISTS bindery_idempotency_key (
                    session bytea NOT NULL REFERENCES bindery_session (token_hash) ON DELETE CASCADE,
                    key text NOT NULL,
                    fingerprint bytea NOT NULL,
                    attempt bytea NOT NULL,
                    claimed_at double precision NOT NULL,
                    status integer,
                    headers bytea,
                    body bytea,
                    PRIMARY KEY (session, key)
                )
                """,
                "CREATE INDEX IF NOT EXISTS bindery_idempotency_key_by_age ON bindery_idempotency_key (claimed_at)",
            ]
        ),
        (
            // A session's credential is the hash of its current token (its key the hash of its
            // first: a sign-in replaces the token, not the key); `user_id` indexes a user's
            // sessions (sign out everywhere); record spaces are never expired nor trimmed. The
            // shared models' space (32 bytes of 0xff) was created before the column: marked here.
            "v4 users",
            [
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS credential bytea",
                "UPDATE bindery_session SET credential = token_hash WHERE credential IS NULL",
                "ALTER TABLE bindery_session ALTER COLUMN credential SET NOT NULL",
                "CREATE UNIQUE INDEX IF NOT EXISTS bindery_session_by_credential ON bindery_session (credential)",
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS user_id text",
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS user_profile bytea",
                "CREATE INDEX IF NOT EXISTS bindery_session_by_user ON bindery_session (user_id) WHERE user_id IS NOT NULL",
                "ALTER TABLE bindery_session ADD COLUMN IF NOT EXISTS holds_records boolean NOT NULL DEFAULT false",
                "UPDATE bindery_session SET holds_records = true WHERE token_hash = decode(repeat('ff', 32), 'hex')",
            ]
        ),
        (
            // The persisted shape each state was written with (`v2:1f0c…`: NULL before, read as
            // version 1); set-aside state is state a deploy could not read, kept byte for byte
            // out of the way until a later deploy's migration reads it.
            "v5 persisted shapes",
            [
                "ALTER TABLE bindery_view_model ADD COLUMN IF NOT EXISTS shape text",
                """
                CREATE TABLE IF NOT EXISTS bindery_set_aside (
                    session bytea NOT NULL REFERENCES bindery_session (token_hash) ON DELETE CASCADE,
                    path text NOT NULL,
                    version bigint NOT NULL,
                    state bytea NOT NULL,
                    shape text,
                    reason text NOT NULL,
                    set_aside_at double precision NOT NULL,
                    PRIMARY KEY (session, path)
                )
                """,
            ]
        ),
        (
            // Which node channels hold which space (a session's key or a record space): a write
            // notifies only those. No foreign key to sessions: record spaces and sessions not yet
            // created are held too, and a hold must not lock or fail on the session row (see
            // SpaceHolder). A deleted session's rows go when their node releases them or stops.
            "v6 space holders",
            [
                """
                CREATE TABLE IF NOT EXISTS bindery_holder (
                    space bytea NOT NULL,
                    channel text NOT NULL,
                    listener text NOT NULL,
                    PRIMARY KEY (space, channel)
                )
                """,
                // Returns once no transaction that locked (or is creating) the session row of
                // `space` is in flight: `FOR UPDATE` waits for every writer's `FOR KEY SHARE`;
                // when no row is visible, an insert of it waits for a creator still in flight,
                // and is undone at once (the block's error rolls it back). See SpaceHolder.
                """
                CREATE OR REPLACE FUNCTION bindery_wait_for_writers(target bytea) RETURNS void
                LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM 1 FROM bindery_session WHERE token_hash = target FOR UPDATE;
                    IF NOT FOUND THEN
                        BEGIN
                            INSERT INTO bindery_session (token_hash, credential, created_at, last_used_at)
                            VALUES (target, target, 0, 0) ON CONFLICT DO NOTHING;
                            RAISE EXCEPTION 'undo' USING ERRCODE = 'P0001';
                        EXCEPTION WHEN raise_exception THEN
                            NULL;
                        END;
                    END IF;
                END
                $$
                """,
            ]
        ),
        // A batch of view-model writes in one statement (PostgresStore+WriteFunctions.swift).
        ("v7 batched writes", [applyWriteFunction, applyWritesFunction]),
        (
            // Every write looks for the newest log entry older than the policy's age; without
            // this index that read fetched every entry of the view model (about half the
            // server's time a write in `scripts/bench`); with it, an index range that is
            // usually empty.
            "v8 log entries by age",
            [
                """
                CREATE INDEX IF NOT EXISTS bindery_version_log_by_age
                    ON bindery_version_log (session, path, logged_at) INCLUDE (version)
                """
            ]
        ),
    ]

    /// Opens one connection, applies the missing migrations under the advisory lock, closes it.
    static func migrate(endpoint: PostgresEndpoint, nodeID: String, logger: Logger) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: endpoint.connectionConfiguration(applicationName: "bindery-migrate-\(nodeID)"),
            id: 0, logger: logger
        )
        do {
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS bindery_migration (
                        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """,
                    logger: logger
                )
                var applied: Set<String> = []
                for try await name in try await connection.query("SELECT name FROM bindery_migration", logger: logger)
                    .decode(String.self)
                {
                    applied.insert(name)
                }
                for migration in migrations where !applied.contains(migration.name) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO bindery_migration (name) VALUES (\(migration.name))", logger: logger
                    )
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
