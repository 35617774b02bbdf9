import Foundation

extension RemoteViewModel {
    /// Writes inputs and waits for the server's answer: merged with the writes not yet sent into
    /// one PATCH (JSON merge patch) carrying `If-Match` (the version shown when they were written)
    /// and an `Idempotency-Key`, retried unchanged after a network failure or 502/503/504. Throws
    /// the server's problem when it refused them (also shown in ``problem``).
    ///
    /// A collaborative input (one the snapshot lists in `texts`) is not PATCHed: the difference
    /// from the text shown is sent as text operations (``subscript(input:)`` too), and this waits
    /// until the server has applied it.
    public func write(_ inputs: [String: JSONValue]) async throws {
        let queued = enqueue(inputs)
        if let number = queued.patch {
            try await withCheckedThrowingContinuation { continuation in
                writeWaiters.append((number, continuation))
            }
        }
        for (name, number) in queued.texts { try await waitForText(name, edit: number) }
    }

    /// Waits until every input written so far has been answered; throws the problem of a refusal.
    public func flush() async throws {
        for (name, text) in texts { try await waitForText(name, edit: text.edited) }
        guard !writes.isEmpty else { return }
        let last = writes.written
        try await withCheckedThrowingContinuation { continuation in
            writeWaiters.append((last, continuation))
        }
    }

    /// Queues a write (collaborative texts as edits) and makes sure the writers run; answers the
    /// PATCH write's number, if some input is PATCHed, and each text edit's.
    func enqueue(_ inputs: [String: JSONValue]) -> (patch: Int?, texts: [(String, Int)]) {
        var plain: [String: JSONValue] = [:]
        var edits: [(String, Int)] = []
        for (name, value) in inputs {
            if texts[name] != nil, let typed = value.stringValue ?? (value == .null ? "" : nil) {
                if let number = texts[name]?.edit(to: typed) { edits.append((name, number)) }
                sendText(name)
            } else {
                plain[name] = value
            }
        }
        var number: Int?
        if !plain.isEmpty || edits.isEmpty {
            number = writes.add(plain, shown: version)
            if writer == nil {
                writer = Task { await drain() }
            }
        }
        show()
        return (number, edits)
    }

    /// Sends PATCHes, one at a time, until nothing waits.
    private func drain() async {
        while let batch = writes.next() {
            let outcome = await send(batch)
            let answered: Int?
            switch outcome {
            case .success(let version): answered = version
            case .failure(let problem): answered = nil; report(problem)
            }
            writes.answered(version: answered)
            show()
            let done = writeWaiters.filter { $0.last <= batch.last }
            writeWaiters.removeAll { $0.last <= batch.last }
            for waiter in done { waiter.continuation.resume(with: outcome.map { _ in () }) }
        }
        writer = nil
    }

    /// Sends one PATCH until it gets an answer: the version it made, or the problem refusing it.
    private func send(_ batch: PendingWrites.Batch) async -> Result<Int?, RemoteProblem> {
        var batch = batch
        var attempt = 0
        var rereads = 0
        while true {
            var headers = ["Content-Type": "application/merge-patch+json", "Idempotency-Key": batch.key]
            if let ifMatch = batch.ifMatch { headers["If-Match"] = "\"\(ifMatch)\"" }
            let answer: Answer
            do {
                answer = try await transport.send("PATCH", viewTarget, headers: headers, body: .object(batch.values))
            } catch {
                // No answer: it may have been applied; the same key makes the retry safe.
                attempt += 1
                try? await backoff.wait(attempt: attempt)
                continue
            }
            if answer.succeeded, let snapshot = answer.json {
                accept(snapshot)
                return .success(snapshot.objectValue?["version"]?.intValue)
            }
            if answer.isUnanswered || answer.isStillRunning {
                attempt += 1
                try? await backoff.wait(attempt: attempt, retryAfter: answer.retryAfter)
                continue
            }
            let problem = answer.problem
            if answer.status == 412, rereads < 3, Set(problem.fields).isDisjoint(with: batch.values.keys) {
                // Not a conflict with what this write changes: read the current version, write on it.
                rereads += 1
                try? await refresh()
                batch.ifMatch = server?.objectValue?["version"]?.intValue
                batch.key = UUID().uuidString
                continue
            }
            try? await refresh()
            return .failure(problem)
        }
    }
}
