import BinderyRuntime
import Foundation

extension RemoteViewModel {
    /// Keeps the snapshot current until the task is cancelled: follows the event stream with JSON
    /// Patch events (`?patches=1`), applies each patch to the version it tests, resumes with
    /// `Last-Event-ID` after a cut (back-off with jitter), and reopens at once when a patch does
    /// not apply (the server then sends a whole snapshot, as it does for a gap its log no longer
    /// covers). Stops for good on 401 (unknown session), 403 and 404: ``connection`` says why.
    public func follow() async {
        var attempt = 0
        while !Task.isCancelled {
            connection = attempt == 0 ? .connecting : .reconnecting(attempt: attempt)
            let outcome = await followOnce()
            switch outcome {
            case .refused(let problem):
                connection = .failed(problem)
                report(problem)
                return
            case .reopen:
                attempt = 0
                continue
            case .received:
                attempt = 1
            case .nothing:
                attempt += 1
            }
            if Task.isCancelled { break }
            connection = .reconnecting(attempt: attempt)
            do { try await backoff.wait(attempt: attempt) } catch { break }
        }
        connection = .idle
    }

    /// How one connection ended.
    enum StreamEnd {
        case refused(RemoteProblem), reopen, received, nothing
    }

    /// Follows one connection until it ends (or ``interruptStream()`` cuts it: reopened at once).
    private func followOnce() async -> StreamEnd {
        let held = server?.objectValue?["version"]?.intValue
        let events = EventStream.open(transport, viewTarget + "/events?patches=1", lastEventID: held.map(String.init))
        streamInterrupted = false
        let reading = Task { () -> StreamEnd in
            var received = false
            do {
                for try await event in events {
                    if !apply(event) { log("reopen"); return .reopen }
                    if !received {
                        connection = .live
                        notifyChange()
                    }
                    received = true
                }
                return received ? .received : .nothing
            } catch let problem as RemoteProblem where [401, 403, 404].contains(problem.status) {
                return .refused(problem)
            } catch {
                return received ? .received : .nothing
            }
        }
        streamInterruption = { reading.cancel() }
        defer { streamInterruption = nil }
        let end = await withTaskCancellationHandler {
            await reading.value
        } onCancel: {
            reading.cancel()
        }
        return streamInterrupted ? .reopen : end
    }

    /// Applies one event; false when the stream must be reopened (a patch that does not apply).
    private func apply(_ event: ServerSentEvent) -> Bool {
        switch event.type {
        case nil, "message":
            guard let snapshot = try? JSONValue(parsing: Array(event.data.utf8)) else { return false }
            log("snapshot \(snapshot.objectValue?["version"]?.intValue ?? -1)")
            accept(snapshot)
            return true
        case "patch":
            let held = server?.objectValue?["version"]?.intValue ?? 0
            guard let version = event.id.flatMap(Int.init), version > held else { return true }
            log("patch \(version)")
            guard let server, let patch = try? JSONValue(parsing: Array(event.data.utf8)).arrayValue,
                let patched = try? JSONPatch.apply(patch, to: server)
            else { return false }
            accept(patched)
            return true
        case "edits":
            // Collaborative texts' ops, merged into what this client shows; the version after
            // them carries the text too, but a text is shown as this client holds it.
            guard let edits = try? JSONValue(parsing: Array(event.data.utf8)) else { return true }
            log("edits")
            takeEdits(edits)
            return true
        default:
            // `presence` is not followed yet.
            return true
        }
    }

    /// Cuts the event stream as a network failure would; ``follow()`` resumes with `Last-Event-ID`.
    package func interruptStream() {
        log("interrupted")
        streamInterrupted = true
        streamInterruption?()
    }
}
