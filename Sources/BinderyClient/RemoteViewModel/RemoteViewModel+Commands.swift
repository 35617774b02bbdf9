import Foundation

extension RemoteViewModel {
    /// Executes command `name` (with `argument` as its JSON body) after the inputs written before
    /// it, and answers the snapshot once it has finished. The server applies the declared policy:
    /// the request asks it to wait (`Prefer: wait`), and a command still running after that (202)
    /// is followed until it stops. Retried with the same `Idempotency-Key` when unanswered.
    ///
    /// Throws the server's ``RemoteProblem`` when it refuses (also shown in ``problem``) or when the
    /// execution failed, and `CancellationError` when the calling task is cancelled: the server's
    /// execution is cancelled first (`POST …/commands/{name}/cancel`). A sign-in command's answer
    /// carries the session's new token: the session carries it from then on.
    @discardableResult
    public func run(_ name: String, with argument: JSONValue? = nil, waitingUpTo wait: Duration = .seconds(30)) async throws -> JSONValue {
        try? await flush()
        let key = UUID().uuidString
        let seconds = max(1, min(60, Int(wait.components.seconds)))
        let target = viewTarget + "/commands/" + name
        do {
            var attempt = 0
            while true {
                let answer: Answer
                do {
                    answer = try await transport.send(
                        "POST", target, headers: ["Prefer": "wait=\(seconds)", "Idempotency-Key": key], body: argument
                    )
                } catch is URLError {
                    // No answer: it may have run; the same key makes the retry safe.
                    attempt += 1
                    try await backoff.wait(attempt: attempt)
                    continue
                }
                if answer.isUnanswered || answer.isStillRunning {
                    attempt += 1
                    try await backoff.wait(attempt: attempt, retryAfter: answer.retryAfter)
                    continue
                }
                guard answer.succeeded, let snapshot = answer.json else {
                    report(answer.problem)
                    throw answer.problem
                }
                // A sign-in command answers the session's new token: every request carries it now.
                if let token = snapshot.objectValue?["token"]?.stringValue { transport.credential.replace(with: token) }
                accept(snapshot)
                return answer.status == 202 ? try await finish(name) : snapshot
            }
        } catch {
            guard Task.isCancelled else { throw error }
            await cancelOnServer(name)
            throw CancellationError()
        }
    }

    /// Follows a command that answered 202 (long-polls `?after=`) until it stops executing.
    private func finish(_ name: String) async throws -> JSONValue {
        while true {
            guard let snapshot = server, let version = version else { throw CancellationError() }
            if let status = CommandStatus(snapshot.objectValue?["commands"]?.objectValue?[name]), !status.executing {
                if let error = status.error {
                    let problem = RemoteProblem(
                        status: 409,
                        document: [
                            "title": "Command failed", "status": 409, "command": .string(name),
                            "detail": error.objectValue?["message"] ?? .null,
                        ])
                    report(problem)
                    throw problem
                }
                return snapshot
            }
            let answer = try await transport.send("GET", viewTarget + "?after=\(version)", headers: ["Prefer": "wait=30"])
            if answer.succeeded, let newer = answer.json {
                accept(newer)
            } else if answer.status != 304, !answer.isUnanswered {
                throw answer.problem
            }
        }
    }

    /// Cancels the server's running execution of `name`, from a task of its own (the caller's is
    /// cancelled), and shows the snapshot it answers.
    private func cancelOnServer(_ name: String) async {
        let transport = transport
        let target = viewTarget + "/commands/" + name + "/cancel"
        let answer = await Task { try? await transport.send("POST", target) }.value
        if let answer, answer.succeeded, let snapshot = answer.json { accept(snapshot) }
    }
}
