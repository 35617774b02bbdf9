import BinderyRuntime
import Foundation

/// One collaborative input as this client holds it (ot.js's client): the server's text at
/// `revision`, at most one operation in flight, what was typed after it buffered, and the text
/// shown, always `server` + in flight + buffer. Others' edits are transformed against what is
/// pending (this client's side `.left`, as the server orders a later edit's insert first).
struct SharedText: Sendable {
    /// The operation sent and not yet answered.
    struct InFlight: Sendable {
        /// Its id: a resend with the same id is applied once.
        var id: String
        /// The revision it was made on.
        var base: Int
        /// The operation as sent (the body of every resend).
        var sent: TextOperation
        /// The operation transformed against the edits of others applied since (on `server`).
        var ops: TextOperation
        /// The number of the last edit it carries.
        var last: Int
    }

    /// The server's text at `revision`.
    private(set) var server: String
    /// The revision (the record's version) `server` is at.
    private(set) var revision: Int
    /// What this client shows: `server` with what is in flight and buffered applied.
    private(set) var local: String
    private(set) var inFlight: InFlight?
    /// Typed after what is in flight, not yet sent (applies after `inFlight.ops`).
    private(set) var buffer = TextOperation()
    /// The number of the last edit taken, and of the last one the server applied (or refused).
    private(set) var edited = 0
    private(set) var answered = 0
    /// Whether the text must be caught up with the server before sending (a gap, a 409, a newer snapshot).
    var needsReload = false

    init(text: String, revision: Int) {
        self.server = text
        self.revision = revision
        self.local = text
    }

    /// Whether something typed here is not yet applied by the server.
    var isPending: Bool { inFlight != nil || !buffer.isEmpty }

    /// Takes what this client now shows, `text`: its difference from `local` joins the buffer.
    /// Answers the edit's number.
    mutating func edit(to text: String) -> Int {
        let op = TextOperation.difference(from: local, to: text)
        if !op.isEmpty {
            buffer = Self.compose(buffer, op)
            local = text
            edited += 1
        }
        return edited
    }

    /// A snapshot showed `text` at `revision`: taken when nothing is pending; otherwise newer
    /// text is fetched as edits (``needsReload``) so that what is pending is transformed, not lost.
    mutating func snapshot(text: String, revision: Int) {
        guard revision > self.revision else { return }
        if isPending || needsReload {
            needsReload = true
        } else {
            server = text
            local = text
            self.revision = revision
        }
    }

    /// Moves the buffer in flight with a fresh id; nil when one is in flight or nothing waits.
    mutating func send() -> InFlight? {
        guard inFlight == nil, !needsReload, !buffer.isEmpty else { return nil }
        inFlight = InFlight(id: UUID().uuidString, base: revision, sent: buffer, ops: buffer, last: edited)
        buffer = TextOperation()
        return inFlight
    }

    /// The POST's answer to the operation `id`: the `concurrent` edits of others first, then ours at `revision`.
    mutating func answered(id: String, revision: Int, concurrent: [JSONValue]) throws {
        guard inFlight?.id == id else { return }  // acknowledged by an `edits` event first
        for edit in concurrent {
            guard let object = edit.objectValue, let at = object["revision"]?.intValue, at > self.revision,
                object["id"]?.stringValue != id, let ops = object["ops"]
            else { continue }
            try remote(TextOperation(json: ops))
            self.revision = at
        }
        acknowledged(revision: revision)
    }

    /// An `edits` event's (or `?after=`'s) edits from `from` to `revision`; false when they do not
    /// reach this client's revision (`edits` null, or a gap): the text must be reloaded.
    mutating func integrate(from: Int, revision: Int, edits: JSONValue?) throws -> Bool {
        if revision <= self.revision { return true }
        guard let edits = edits?.arrayValue, from <= self.revision else { return false }
        for edit in edits {
            guard let object = edit.objectValue, let at = object["revision"]?.intValue, at > self.revision else { continue }
            if let inFlight, object["id"]?.stringValue == inFlight.id {
                acknowledged(revision: at)
            } else if let ops = object["ops"] {
                try remote(TextOperation(json: ops))
                self.revision = at
            }
        }
        self.revision = revision
        return true
    }

    /// The operation in flight was refused with 409 (its base is older than the server keeps):
    /// it joins the buffer again, to be rebased on the reloaded text.
    mutating func tooOld() {
        guard let inFlight else { return }
        buffer = Self.compose(inFlight.ops, buffer)
        self.inFlight = nil
        needsReload = true
    }

    /// The operation in flight was refused for good: what is pending is dropped, the server's text shown.
    mutating func refused() {
        answered = edited
        inFlight = nil
        buffer = TextOperation()
        local = server
        needsReload = true
    }

    /// Takes the server's whole `text` at `revision`; what is buffered is rebased on it.
    mutating func rebase(text: String, revision: Int) throws {
        needsReload = false
        guard revision >= self.revision, inFlight == nil else { return }
        let theirs = TextOperation.difference(from: server, to: text)
        let mine = buffer
        buffer = try mine.transformed(against: theirs, side: .left)
        local = try theirs.transformed(against: mine, side: .right).apply(to: local)
        server = text
        self.revision = revision
    }

    /// Our operation in flight was applied, at `revision`.
    private mutating func acknowledged(revision: Int) {
        guard let inFlight else { return }
        server = (try? inFlight.ops.apply(to: server)) ?? server
        self.revision = max(self.revision, revision)
        answered = inFlight.last
        self.inFlight = nil
    }

    /// Another client's edit, applied on the server after `revision`: transformed against what is
    /// in flight and buffered, then applied to what this client shows.
    private mutating func remote(_ ops: TextOperation) throws {
        server = try ops.apply(to: server)
        var theirs = ops
        if var inFlight {
            let mine = inFlight.ops
            inFlight.ops = try mine.transformed(against: theirs, side: .left)
            theirs = try theirs.transformed(against: mine, side: .right)
            self.inFlight = inFlight
        }
        if !buffer.isEmpty {
            let mine = buffer
            buffer = try mine.transformed(against: theirs, side: .left)
            theirs = try theirs.transformed(against: mine, side: .right)
        }
        local = try theirs.apply(to: local)
    }

    /// `first` then `second`, as one operation.
    static func compose(_ first: TextOperation, _ second: TextOperation) -> TextOperation {
        TextOperation(first.components + second.components)
    }
}
