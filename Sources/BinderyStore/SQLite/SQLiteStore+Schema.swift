import GRDB

/// The tables: sessions, one row per view model, each view model's version log, and the sessions'
/// idempotency keys. Deleting a session cascades to the rest.
extension SQLiteStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        created_at DOUBLE NOT NULL,
                        last_used_at DOUBLE NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX session_by_use ON session (last_used_at, created_at, token_hash);
                    CREATE TABLE view_model (
                        session BLOB NOT NULL REFERENCES session (token_hash) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        state BLOB NOT NULL,
                        command_name TEXT,
                        command_started_at DOUBLE,
                        command_interrupted BOOLEAN NOT NULL DEFAULT 0,
                        log_floor INTEGER NOT NULL,
                        PRIMARY KEY (session, path)
                    ) WITHOUT ROWID;
                    CREATE TABLE version_log (
                        session BLOB NOT NULL,
                        path TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        snapshot BLOB NOT NULL,
                        logged_at DOUBLE NOT NULL,
                        PRIMARY KEY (session, path, version),
                        FOREIGN KEY (session, path) REFERENCES view_model (session, path) ON DELETE CASCADE
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v2 idempotency keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_key (
                        session BLOB NOT NULL REFERENCES session (token_hash) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        fingerprint BLOB NOT NULL,
                        attempt BLOB NOT NULL,
                        claimed_at DOUBLE NOT NULL,
                        status INTEGER,
                        headers BLOB,
                        body BLOB,
                        PRIMARY KEY (session, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotency_key_by_age ON idempotency_key (claimed_at);
                    """
            )
        }
        migrator.registerMigration("v3 users") { db in
            // A session's credential is the hash of its current token (its key is the hash of its
            // first: a sign-in replaces the token, not the key); `user_id` indexes the sessions of
            // a user (sign out everywhere); record spaces are never expired nor trimmed. The shared
            // models' space (32 bytes of 0xff) was created before the column: it is marked here.
            try db.execute(
                sql: """
                    ALTER TABLE session ADD COLUMN credential BLOB;
                    UPDATE session SET credential = token_hash;
                    CREATE UNIQUE INDEX session_by_credential ON session (credential);
                    ALTER TABLE session ADD COLUMN user_id TEXT;
                    ALTER TABLE session ADD COLUMN user_profile BLOB;
                    CREATE INDEX session_by_user ON session (user_id) WHERE user_id IS NOT NULL;
                    ALTER TABLE session ADD COLUMN holds_records BOOLEAN NOT NULL DEFAULT 0;
                    UPDATE session SET holds_records = 1 WHERE token_hash = x'\(String(repeating: "ff", count: 32))';
                    """
            )
        }
        migrator.registerMigration("v4 persisted shapes") { db in
            // The persisted shape each state was written with (`v2:1f0c…`: NULL before, read as
            // version 1); set-aside state is state a deploy could not read, kept byte for byte
            // out of the way until a later deploy's migration reads it.
            try db.execute(
                sql: """
                    ALTER TABLE view_model ADD COLUMN shape TEXT;
                    CREATE TABLE set_aside (
                        session BLOB NOT NULL REFERENCES session (token_hash) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        state BLOB NOT NULL,
                        shape TEXT,
                        reason TEXT NOT NULL,
                        set_aside_at DOUBLE NOT NULL,
                        PRIMARY KEY (session, path)
                    ) WITHOUT ROWID;
                    """
            )
        }
        return migrator
    }

    /// Fails unless `PRAGMA quick_check` says `ok`: a damaged file stops start-up.
    static func checkIntegrity(_ db: Database) throws {
        let results = try String.fetchAll(db, sql: "PRAGMA quick_check")
        guard results == ["ok"] else {
            throw StoreError.unavailable(reason: "integrity check failed: \(results.prefix(3).joined(separator: "; "))")
        }
    }
}
