import BinderyRuntime
import Foundation

extension RemoteViewModel {
    /// Notes the collaborative inputs a snapshot lists in `texts` (name → revision): a new one is
    /// taken as shown; a newer revision of one with edits pending is fetched as edits instead.
    func takeTexts(of snapshot: JSONValue) {
        guard let listed = snapshot.objectValue?["texts"]?.objectValue else { return }
        let inputs = snapshot.objectValue?["inputs"]?.objectValue ?? [:]
        for (name, value) in listed {
            guard let revision = value.intValue else { continue }
            let text = inputs[name]?.stringValue ?? ""
            if texts[name] == nil {
                texts[name] = SharedText(text: text, revision: revision)
            } else {
                texts[name]?.snapshot(text: text, revision: revision)
                if texts[name]?.needsReload == true { sendText(name) }
            }
        }
    }

    /// An `edits` event: `{"texts": [{path, input, from, revision, edits}]}`, others' edits (and
    /// this client's, the acknowledgement) merged into the texts of this view model.
    func takeEdits(_ event: JSONValue) {
        for item in event.objectValue?["texts"]?.arrayValue ?? [] {
            guard let edit = item.objectValue, edit["path"]?.stringValue == path, let name = edit["input"]?.stringValue,
                texts[name] != nil, let from = edit["from"]?.intValue, let revision = edit["revision"]?.intValue
            else { continue }
            do {
                if try texts[name]?.integrate(from: from, revision: revision, edits: edit["edits"]) == false {
                    texts[name]?.needsReload = true
                }
            } catch {
                diverged(name)
            }
            resumeTextWaiters(name)
            sendText(name)
        }
        show()
    }

    /// Makes sure text `name`'s sender runs: one operation in flight, the rest buffered behind it.
    func sendText(_ name: String) {
        guard textSenders[name] == nil else { return }
        textSenders[name] = Task { await drainText(name) }
    }

    /// Waits until the server has applied (or refused) edit `number` of text `name`.
    func waitForText(_ name: String, edit number: Int) async throws {
        guard let text = texts[name], text.answered < number else { return }
        try await withCheckedThrowingContinuation { continuation in
            textWaiters.append((name, number, continuation))
        }
    }

    /// Sends text `name`'s edits, one operation at a time, until nothing waits.
    private func drainText(_ name: String) async {
        var attempt = 0
        while let text = texts[name], !Task.isCancelled {
            if text.needsReload || textsToReset.contains(name) {
                if await reloadText(name) {
                    attempt = 0
                } else {
                    attempt += 1
                    try? await backoff.wait(attempt: attempt)
                }
                continue
            }
            guard let inFlight = texts[name]?.send() else { break }
            await post(inFlight, of: name)
        }
        textSenders[name] = nil
    }

    /// POSTs one operation until it gets an answer: a network failure or 5xx sends the very same
    /// request again (the same id: the server applies it once and answers its first answer).
    private func post(_ inFlight: SharedText.InFlight, of name: String) async {
        let body: JSONValue = ["id": .string(inFlight.id), "base": .int(inFlight.base), "ops": inFlight.sent.json]
        var attempt = 0
        while !Task.isCancelled {
            let answer: Answer
            do {
                answer = try await transport.send("POST", textTarget(name) + "/ops", body: body)
                if textAnswersToLose > 0 {
                    textAnswersToLose -= 1
                    throw URLError(.networkConnectionLost)
                }
            } catch {
                log("resend \(name)")
                attempt += 1
                try? await backoff.wait(attempt: attempt)
                continue
            }
            guard texts[name]?.inFlight?.id == inFlight.id else { return }  // an `edits` event acknowledged it
            if answer.succeeded, let answered = answer.json?.objectValue, let revision = answered["revision"]?.intValue {
                do {
                    try texts[name]?.answered(id: inFlight.id, revision: revision, concurrent: answered["concurrent"]?.arrayValue ?? [])
                } catch {
                    diverged(name)
                }
            } else if answer.isUnanswered || answer.isStillRunning || answer.status == 429 {
                attempt += 1
                try? await backoff.wait(attempt: attempt, retryAfter: answer.retryAfter)
                continue
            } else if answer.status == 409 {
                log("too old \(name)")
                texts[name]?.tooOld()
            } else {
                report(answer.problem)
                texts[name]?.refused()
                resumeTextWaiters(name, failing: answer.problem)
            }
            resumeTextWaiters(name)
            show()
            return
        }
    }

    /// Catches text `name` up with the server (`GET …/inputs/{name}?after=R`): its edits since this
    /// client's revision, else its whole text with what is buffered rebased on it. False on no answer.
    private func reloadText(_ name: String) async -> Bool {
        guard let held = texts[name] else { return true }
        let reset = textsToReset.contains(name)
        let query = reset ? "" : "?after=\(held.revision)"
        guard let answer = try? await transport.send("GET", textTarget(name) + query) else { return false }
        guard answer.succeeded, let read = answer.json?.objectValue, let text = read["text"]?.stringValue,
            let revision = read["revision"]?.intValue
        else {
            if answer.isUnanswered || answer.status == 429 { return false }
            report(answer.problem)
            texts[name]?.refused()
            texts[name]?.needsReload = false
            textsToReset.remove(name)
            resumeTextWaiters(name, failing: answer.problem)
            return true
        }
        log("reload \(name)")
        do {
            if reset { throw TextOperationError.overlappingDeletionsDiffer }
            let reached = try texts[name]?.integrate(from: read["from"]?.intValue ?? held.revision, revision: revision, edits: read["edits"])
            if reached == false { try texts[name]?.rebase(text: text, revision: revision) }
            texts[name]?.needsReload = false
        } catch {
            // Diverged (or asked to reset): the server's text, without what was pending here.
            texts[name] = SharedText(text: text, revision: revision)
            textsToReset.remove(name)
        }
        resumeTextWaiters(name)
        show()
        return true
    }

    /// This client's model of text `name` and the server's disagree: drop what is pending, read it whole.
    private func diverged(_ name: String) {
        log("diverged \(name)")
        texts[name]?.refused()
        textsToReset.insert(name)
    }

    /// Resumes the writers waiting for edits of `name` the server has answered (with `problem`, if refused).
    private func resumeTextWaiters(_ name: String, failing problem: RemoteProblem? = nil) {
        let answered = texts[name]?.answered ?? Int.max
        let done = textWaiters.filter { $0.input == name && ($0.last <= answered || problem != nil) }
        textWaiters.removeAll { $0.input == name && ($0.last <= answered || problem != nil) }
        for waiter in done {
            if let problem { waiter.continuation.resume(throwing: problem) } else { waiter.continuation.resume() }
        }
    }

    /// `/api/views/{path}/inputs/{name}`.
    private func textTarget(_ name: String) -> String {
        viewTarget + "/inputs/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
    }
}
