/// The server-side view-model writer (migration "v7 batched writes"): a batch of view-model
/// writes goes to PostgreSQL as arrays in one statement, `bindery_apply_writes`, which applies
/// each write as the former 7 statements did (session touch, version check, row, log or floor,
/// pruning, idempotency claim, holders' notifications) and answers one row per operation.
///
/// Every statement of a VOLATILE PL/pgSQL function takes a new snapshot under READ COMMITTED, so
/// the notify statement still sees every holder committed before the touch's `FOR KEY SHARE` was
/// granted (see ``SpaceHolder``).
///
/// A refusal is raised with a SQLSTATE of class `BD`: `BDR01` session not found, `BDR02` conflict
/// (the message is the stored version, empty for none), `BDR03` version not increasing, `BDR04`
/// idempotency key claimed. `careful` confines each operation's failure to it with a block that
/// catches it (a subtransaction inside the server, no round trip), re-raising deadlocks and
/// serialization failures so that the whole transaction is retried; without it, the first
/// refusal aborts the statement and the writer runs the batch again carefully. Each result row
/// says whether its operation applied (`out_state` NULL), and if not, which write failed and why.
extension PostgresStore {
    /// `bindery_apply_write`: one write, raising its refusal.
    static let applyWriteFunction = """
        CREATE OR REPLACE FUNCTION bindery_apply_write(
            p_session bytea, p_path text, p_version bigint, p_has_expected boolean, p_expected bigint,
            p_state bytea, p_shape text, p_logged boolean, p_snapshot bytea,
            p_command_name text, p_command_started double precision,
            p_at double precision, p_touch_before double precision, p_cutoff double precision,
            p_dropped_by_count bigint, p_payload text, p_own_channel text,
            p_has_claim boolean, p_claim_session bytea, p_claim_key text, p_claim_fingerprint bytea,
            p_claim_attempt bytea, p_claim_at double precision, p_claim_expired_before double precision
        ) RETURNS void LANGUAGE plpgsql AS $$
        #variable_conflict use_column
        DECLARE
            v_stored bigint;
            v_attempt bytea;
            v_continues text := coalesce(p_command_name, '');
        BEGIN
            -- The touch: a shared lock says the session exists and holds off its deletion (and a
            -- hold) until the commit; the last use moves only if nobody else is moving it.
            PERFORM 1 FROM bindery_session WHERE token_hash = p_session FOR KEY SHARE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'session not found' USING ERRCODE = 'BDR01';
            END IF;
            UPDATE bindery_session SET last_used_at = p_at
            WHERE token_hash IN (
                SELECT token_hash FROM bindery_session
                WHERE token_hash = p_session AND last_used_at < p_touch_before
                FOR NO KEY UPDATE SKIP LOCKED
            );
            IF p_has_expected AND p_version <= p_expected THEN
                SELECT version INTO v_stored FROM bindery_view_model WHERE session = p_session AND path = p_path;
                IF v_stored IS NOT DISTINCT FROM p_expected THEN
                    RAISE EXCEPTION 'version not increasing' USING ERRCODE = 'BDR03';
                END IF;
                RAISE EXCEPTION '%', coalesce(v_stored::text, '') USING ERRCODE = 'BDR02';
            END IF;
            IF p_has_expected THEN
                -- A write that keeps the same command running keeps its start and its lease.
                UPDATE bindery_view_model SET version = p_version, state = p_state, shape = p_shape,
                    command_started_at = CASE WHEN command_name = v_continues AND NOT command_interrupted
                        THEN command_started_at ELSE p_command_started END,
                    command_renewed_at = CASE WHEN command_name = v_continues AND NOT command_interrupted
                        THEN command_renewed_at ELSE NULL END,
                    command_name = p_command_name, command_interrupted = false,
                    log_floor = CASE WHEN p_logged THEN log_floor ELSE p_version END
                WHERE session = p_session AND path = p_path AND version = p_expected;
            ELSE
                INSERT INTO bindery_view_model
                    (session, path, version, state, shape, command_name, command_started_at, command_interrupted, log_floor)
                VALUES (p_session, p_path, p_version, p_state, p_shape, p_command_name, p_command_started, false,
                    CASE WHEN p_logged THEN p_version - 1 ELSE p_version END)
                ON CONFLICT (session, path) DO NOTHING;
            END IF;
            IF NOT FOUND THEN
                SELECT version INTO v_stored FROM bindery_view_model WHERE session = p_session AND path = p_path;
                RAISE EXCEPTION '%', coalesce(v_stored::text, '') USING ERRCODE = 'BDR02';
            END IF;
            IF p_logged THEN
                INSERT INTO bindery_version_log (session, path, version, snapshot, logged_at)
                VALUES (p_session, p_path, p_version, p_snapshot, p_at);
            ELSE
                DELETE FROM bindery_version_log WHERE session = p_session AND path = p_path AND version <= p_version;
            END IF;
            -- Pruning: the versions beyond the count, and the newest too old with all below it.
            WITH dropped AS (
                SELECT GREATEST(p_dropped_by_count, (
                    SELECT max(version) FROM bindery_version_log
                    WHERE session = p_session AND path = p_path AND logged_at < p_cutoff
                )) AS version
            ), gone AS (
                DELETE FROM bindery_version_log l USING dropped
                WHERE l.session = p_session AND l.path = p_path AND l.version <= dropped.version
            )
            UPDATE bindery_view_model m SET log_floor = GREATEST(m.log_floor, dropped.version) FROM dropped
            WHERE m.session = p_session AND m.path = p_path AND m.log_floor < dropped.version;
            IF p_has_claim THEN
                INSERT INTO bindery_idempotency_key AS k (session, key, fingerprint, attempt, claimed_at)
                VALUES (p_claim_session, p_claim_key, p_claim_fingerprint, p_claim_attempt, p_claim_at)
                ON CONFLICT (session, key) DO UPDATE SET
                    fingerprint = excluded.fingerprint, attempt = excluded.attempt, claimed_at = excluded.claimed_at,
                    status = NULL, headers = NULL, body = NULL
                WHERE k.claimed_at < p_claim_expired_before;
                IF NOT FOUND THEN
                    SELECT attempt INTO v_attempt FROM bindery_idempotency_key
                    WHERE session = p_claim_session AND key = p_claim_key;
                    IF v_attempt IS DISTINCT FROM p_claim_attempt THEN
                        RAISE EXCEPTION 'key claimed' USING ERRCODE = 'BDR04';
                    END IF;
                END IF;
            END IF;
            PERFORM pg_notify(h.channel, p_payload) FROM bindery_holder h
            WHERE h.space = p_session AND h.channel <> p_own_channel;
        END
        $$
        """

    /// `bindery_apply_writes`: a batch of operations (consecutive writes with the same `p_ops`
    /// number form one, applied together or not at all), one result row per operation.
    static let applyWritesFunction = """
        CREATE OR REPLACE FUNCTION bindery_apply_writes(
            p_careful boolean, p_own_channel text, p_ops bigint[], p_sessions bytea[], p_paths text[],
            p_versions bigint[], p_has_expected boolean[], p_expected bigint[], p_states bytea[],
            p_has_shape boolean[], p_shapes text[], p_logged boolean[], p_snapshots bytea[],
            p_has_command boolean[], p_command_names text[], p_command_started double precision[],
            p_ats double precision[], p_touch_before double precision[], p_cutoffs double precision[],
            p_dropped_by_count bigint[], p_payloads text[], p_has_claim boolean[], p_claim_sessions bytea[],
            p_claim_keys text[], p_claim_fingerprints bytea[], p_claim_attempts bytea[],
            p_claim_ats double precision[], p_claim_expired_before double precision[]
        ) RETURNS TABLE (out_op bigint, out_failed integer, out_state text, out_message text)
        LANGUAGE plpgsql AS $$
        DECLARE
            v_count integer := coalesce(array_length(p_ops, 1), 0);
            v_first integer := 1;
            v_last integer;
            v_index integer;
        BEGIN
            WHILE v_first <= v_count LOOP
                v_last := v_first;
                WHILE v_last < v_count AND p_ops[v_last + 1] = p_ops[v_first] LOOP
                    v_last := v_last + 1;
                END LOOP;
                out_op := p_ops[v_first];
                out_failed := NULL;
                out_state := NULL;
                out_message := NULL;
                IF p_careful THEN
                    BEGIN
                        FOR v_index IN v_first..v_last LOOP
                            out_failed := v_index;
                            PERFORM bindery_apply_write(
                                p_sessions[v_index], p_paths[v_index], p_versions[v_index], p_has_expected[v_index],
                                p_expected[v_index], p_states[v_index],
                                CASE WHEN p_has_shape[v_index] THEN p_shapes[v_index] END,
                                p_logged[v_index], p_snapshots[v_index],
                                CASE WHEN p_has_command[v_index] THEN p_command_names[v_index] END,
                                CASE WHEN p_has_command[v_index] THEN p_command_started[v_index] END,
                                p_ats[v_index], p_touch_before[v_index], p_cutoffs[v_index], p_dropped_by_count[v_index],
                                p_payloads[v_index], p_own_channel, p_has_claim[v_index], p_claim_sessions[v_index],
                                p_claim_keys[v_index], p_claim_fingerprints[v_index], p_claim_attempts[v_index],
                                p_claim_ats[v_index], p_claim_expired_before[v_index]);
                        END LOOP;
                        out_failed := NULL;
                    EXCEPTION
                        WHEN deadlock_detected OR serialization_failure THEN
                            RAISE;
                        WHEN OTHERS THEN
                            out_state := SQLSTATE;
                            out_message := SQLERRM;
                    END;
                ELSE
                    FOR v_index IN v_first..v_last LOOP
                        PERFORM bindery_apply_write(
                            p_sessions[v_index], p_paths[v_index], p_versions[v_index], p_has_expected[v_index],
                            p_expected[v_index], p_states[v_index],
                            CASE WHEN p_has_shape[v_index] THEN p_shapes[v_index] END,
                            p_logged[v_index], p_snapshots[v_index],
                            CASE WHEN p_has_command[v_index] THEN p_command_names[v_index] END,
                            CASE WHEN p_has_command[v_index] THEN p_command_started[v_index] END,
                            p_ats[v_index], p_touch_before[v_index], p_cutoffs[v_index], p_dropped_by_count[v_index],
                            p_payloads[v_index], p_own_channel, p_has_claim[v_index], p_claim_sessions[v_index],
                            p_claim_keys[v_index], p_claim_fingerprints[v_index], p_claim_attempts[v_index],
                            p_claim_ats[v_index], p_claim_expired_before[v_index]);
                    END LOOP;
                END IF;
                RETURN NEXT;
                v_first := v_last + 1;
            END LOOP;
        END
        $$
        """
}
