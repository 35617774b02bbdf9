@testable import BinderyRuntime

/// One client of a collaborative text, as the browser client (`binder/textop.js`) runs it: at
/// most one edit in flight, later local edits gathered in a buffer, and every edit the server
/// reports (on the event stream or in an answer) applied in revision order after transforming
/// what is still unconfirmed against it.
struct SimulatedTextClient {
    /// An edit sent and not yet confirmed.
    struct Inflight {
        var id: String
        var operation: TextOperation
        var base: Int
    }

    let name: String
    /// The text as this client shows it: the server's revision plus its unconfirmed edits.
    private(set) var text: String
    /// The server revision the confirmed part of `text` is at.
    private(set) var revision: Int
    private(set) var inflight: Inflight?
    private(set) var buffer: TextOperation?
    private var sent = 0

    init(name: String, text: String, revision: Int) {
        self.name = name
        self.text = text
        self.revision = revision
    }

    /// Whether everything this client typed is confirmed.
    var isSettled: Bool { inflight == nil && buffer == nil }

    /// Applies the user's `operation` to the text and queues it.
    mutating func edit(_ operation: TextOperation) throws {
        text = try operation.apply(to: text)
        buffer = TextOperation((buffer?.components ?? []) + operation.components)
    }

    /// The next edit to send, when none is in flight.
    mutating func nextToSend() -> Inflight? {
        guard inflight == nil, let buffer else { return nil }
        sent += 1
        inflight = Inflight(id: "\(name)-\(sent)", operation: buffer, base: revision)
        self.buffer = nil
        return inflight
    }

    /// The in-flight edit again, on its new base (after the server refused the old one as too
    /// old and the client caught up).
    mutating func resend() -> Inflight? {
        guard var inflight else { return nil }
        inflight.base = revision
        self.inflight = inflight
        return inflight
    }

    /// Applies what the server reports; false when it starts after this client's revision (a
    /// gap: the client must catch up first).
    mutating func receive(_ edits: TextEdits) throws -> Bool {
        guard edits.from <= revision else { return false }
        for edit in edits.edits {
            if edit.id != nil, edit.id == inflight?.id {
                // Its own edit, acknowledged (an edit that became empty shares its revision
                // with the edit before it: it is recognised by its id).
                inflight = nil
            } else if edit.revision > revision {
                var remote = edit.operation
                if let current = inflight {
                    let mine = try current.operation.transformed(against: remote, side: .left)
                    remote = try remote.transformed(against: current.operation, side: .right)
                    inflight?.operation = mine
                }
                if let pending = buffer {
                    let mine = try pending.transformed(against: remote, side: .left)
                    remote = try remote.transformed(against: pending, side: .right)
                    buffer = mine
                }
                text = try remote.apply(to: text)
            }
            revision = max(revision, edit.revision)
        }
        revision = max(revision, edits.revision)
        return true
    }
}
