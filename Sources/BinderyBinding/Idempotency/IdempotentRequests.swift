import BinderyHTTP
import BinderyRuntime
import BinderyStore
import Foundation
import HTTPTypes
import Synchronization

/// Runs the writes and commands that carry an `Idempotency-Key` at most once per session and key,
/// on any node and across restarts, and gives their retries the first answer again.
///
/// - The key is claimed in the transaction of the request's first durable write (see
///   ``RequestClaim``), so it is taken exactly when something the request asked for is stored;
///   the answer is stored on the claim when the request ends.
/// - A retry of the same request (method, path, body) gets the stored answer with
///   `Idempotent-Replayed: true`; the same key on another request is a 422 problem.
/// - A retry while the first runs on this node waits for it. While it runs on another node (the
///   key is claimed but not answered yet) the retry gets 409 with `Retry-After: 1`; a claim left
///   unanswered for longer (its node stopped between its write and its answer) is answered with
///   the view model's current snapshot, which shows what the request did.
/// - A request refused before it changed anything (a 4xx, 412, 503) keeps no answer: its retry
///   is judged again. So does a command whose work failed or was cancelled before committing
///   anything (a 409 "changed elsewhere; try again"): its end claims no key. A refusal after the
///   request changed something (its key is claimed) is its answer; a 5xx never is.
final class IdempotentRequests: Sendable {
    /// How long an unanswered claim counts as still running on another node.
    static let pendingWindow: TimeInterval = 5

    private let store: any SessionStateStore
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date
    private let metrics: BinderyMetrics?
    /// A session's key.
    private struct Running: Hashable {
        let session: SessionTokenHash
        let key: String
    }

    /// Keys whose request runs on this node, with the retries waiting for it.
    private let running = Mutex<[Running: [CheckedContinuation<Void, Never>]]>([:])

    init(store: any SessionStateStore, lifetime: Duration, now: @escaping @Sendable () -> Date, metrics: BinderyMetrics?) {
        self.store = store
        self.lifetime = lifetime.timeInterval
        self.now = now
        self.metrics = metrics
    }

    /// Answers `request` by `run` (which turns its errors into problem responses), at most once
    /// per key; `current` answers the view model's current snapshot. Without the header, `run`.
    ///
    /// For a view model with `sensitive` inputs (a password) the answer is kept without its body,
    /// and so is one that sets the session's cookie (it carries a token): a retry gets the current
    /// snapshot instead; and the request's fingerprint leaves those inputs out.
    func respond(
        to request: Request, in session: Session, sensitive: [String] = [],
        current: () async -> Response,
        run: () async -> Response
    ) async -> Response {
        do {
            return try await respondOnce(to: request, in: session, sensitive: sensitive, current: current, run: run)
        } catch let problem as Problem {
            return problem.response
        } catch {
            return Problem.from(error).response
        }
    }

    private func respondOnce(
        to request: Request, in session: Session, sensitive: [String],
        current: () async -> Response,
        run: () async -> Response
    ) async throws -> Response {
        guard let header = request.headers[.idempotencyKey] else { return await run() }
        let key = try IdempotencyKey.parse(header)
        let fingerprint = IdempotencyKey.fingerprint(of: request, leavingOut: sensitive)
        let id = Running(session: session.tokenHash, key: key)
        await claimLocally(id)
        defer { releaseLocally(id) }
        let received = now()
        let notBefore = received.addingTimeInterval(-lifetime)
        if let record = try await record(of: session, key: key, notBefore: notBefore) {
            return try await replay(record, fingerprint: fingerprint, current: current)
        }
        let claim = RequestClaim(
            session: session.tokenHash.bytes, key: key, fingerprint: fingerprint,
            attempt: Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }), at: received, expiredBefore: notBefore,
            isCommand: request.method == .post
        )
        let response = await RequestClaim.$current.withValue(claim) { await run() }
        guard let stored = IdempotencyClaim(claim) else { return response }
        let succeeded = (200..<300).contains(response.status.code)
        // A refusal is kept only when the request changed something first (its claim is stored).
        let held = succeeded ? nil : try? await store.idempotencyRecord(session: session.tokenHash, key: key, notBefore: notBefore)
        if let held, held.attempt != claim.attempt {
            // Another execution of the same request (on another node) claimed the key first: this
            // one's writes were refused, and the answer is that one's.
            return try await replay(held, fingerprint: fingerprint, current: current)
        }
        guard succeeded || (held != nil && response.status.code < 500), let answer = Self.answer(response, keepsBody: sensitive.isEmpty)
        else { return response }
        try? await store.recordAnswer(answer, for: stored)
        return response
    }

    /// The stored record of `key`; a 503 problem when the store cannot say.
    private func record(of session: Session, key: String, notBefore: Date) async throws -> IdempotencyRecord? {
        do {
            return try await store.idempotencyRecord(session: session.tokenHash, key: key, notBefore: notBefore)
        } catch {
            throw Problem(
                status: .serviceUnavailable, title: "Store unavailable",
                detail: "Whether this key was used cannot be read now; retry with the same key.", headers: [.retryAfter: "1"]
            )
        }
    }

    /// What a retry gets: the first answer, a 422 for another request, a 409 while the first runs.
    private func replay(_ record: IdempotencyRecord, fingerprint: Data, current: () async -> Response) async throws -> Response {
        guard record.fingerprint == fingerprint else {
            metrics?.idempotentRetry("reused")
            throw Problem(
                status: .unprocessableContent, title: "Idempotency key reused",
                detail: "This Idempotency-Key was used for another request (method, path or body); use a new key for a new request."
            )
        }
        var response: Response
        if let answer = record.answer, answer.body.isEmpty, (200..<300).contains(answer.status) {
            // Kept without its body (a secret was in it): what the request did shows now.
            response = await current()
        } else if let answer = record.answer {
            var fields = HTTPFields()
            for pair in answer.headers where pair.count == 2 {
                if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
            }
            response = Response(status: HTTPResponse.Status(code: answer.status), headers: fields, body: .bytes(Array(answer.body)))
        } else if now().timeIntervalSince(record.claimedAt) < Self.pendingWindow {
            metrics?.idempotentRetry("in_progress")
            throw Problem(
                status: .conflict, title: "Request in progress",
                detail: "The request with this Idempotency-Key is still running; retry with the same key.", headers: [.retryAfter: "1"]
            )
        } else {
            response = await current()
        }
        response.headers[.idempotentReplayed] = "true"
        metrics?.idempotentRetry("replayed")
        return response
    }

    /// The answer to keep: status, the fields that matter (not a new session's cookie), body —
    /// none when it may not be kept, or it sets a cookie (a sign-in's carries the new token).
    private static func answer(_ response: Response, keepsBody: Bool) -> StoredAnswer? {
        guard case .bytes(let body) = response.body else { return nil }
        let setsCookie = response.headers.contains { $0.name == .setCookie }
        let headers = response.headers.filter { $0.name != .setCookie }.map { [$0.name.rawName, $0.value] }
        return StoredAnswer(status: response.status.code, headers: headers, body: keepsBody && !setsCookie ? Data(body) : Data())
    }

    /// Waits while a request with the same key runs on this node, then marks this one running.
    private func claimLocally(_ id: Running) async {
        while true {
            let wait = running.withLock { running -> Bool in
                guard running[id] != nil else {
                    running[id] = []
                    return false
                }
                return true
            }
            guard wait else { return }
            await withCheckedContinuation { continuation in
                let waiting = running.withLock { running -> Bool in
                    guard running[id] != nil else { return false }
                    running[id]?.append(continuation)
                    return true
                }
                if !waiting { continuation.resume() }
            }
        }
    }

    /// Marks the key's request ended here and wakes the retries waiting for it.
    private func releaseLocally(_ id: Running) {
        let waiting = running.withLock { $0.removeValue(forKey: id) } ?? []
        waiting.forEach { $0.resume() }
    }
}
