/// The recent text edits of one shared record, version by version: what the server transforms an
/// edit made on an older revision against, what it sends watchers, and how it recognises a
/// repeated request. It covers every version after ``start`` up to ``latest`` and keeps at most
/// `limit` versions (the oldest go first), like the store's version log it is loaded from.
package struct RecordEditLog: Hashable, Sendable {
    /// The text edits one version made, by text key (versions that changed no text have none).
    private struct Version: Hashable, Sendable {
        var version: Int
        var edits: [String: TextEdit]
    }

    /// Every version after this one is in the log.
    package private(set) var start: Int
    /// The newest version in the log.
    package private(set) var latest: Int
    private var versions: [Version] = []
    private let limit: Int

    /// An empty log at `version`: edits on that revision or later can be transformed.
    package init(version: Int, limit: Int = 64) {
        start = version
        latest = version
        self.limit = max(1, limit)
    }

    /// Adds what `version` changed; a version that does not follow ``latest`` starts the log
    /// again from it (versions were missed), one at or below ``latest`` is ignored.
    package mutating func record(version: Int, edits: [String: TextEdit]) {
        guard version > latest else { return }
        if version != latest + 1 {
            versions = []
            start = version - 1
        }
        versions.append(Version(version: version, edits: edits))
        latest = version
        if versions.count > limit {
            let dropped = versions.count - limit
            start = versions[dropped - 1].version
            versions.removeFirst(dropped)
        }
    }

    /// Forgets every edit: the log starts again at `version` (the record was reloaded without
    /// its history).
    package mutating func reset(to version: Int) {
        versions = []
        start = version
        latest = version
    }

    /// The edits of the text `key` after revision `from` up to ``latest``; nil when the log
    /// no longer reaches back to `from` (or `from` is ahead of it).
    package func edits(of key: String, after from: Int) -> TextEdits? {
        guard from >= start, from <= latest else { return nil }
        let edits = versions.lazy.filter { $0.version > from }.compactMap { $0.edits[key] }
        return TextEdits(from: from, revision: latest, edits: Array(edits))
    }

    /// The logged edit of `key` the client named `id`, if the log still holds it.
    package func edit(of key: String, id: String) -> TextEdit? {
        versions.lazy.compactMap { $0.edits[key] }.first { $0.id == id }
    }

    /// `operation`, made on the text `key` at revision `base`, transformed against every edit
    /// of that text since, so it applies to the text at ``latest``.
    package func rebase(_ operation: TextOperation, of key: String, on base: Int) throws(TextRebaseError) -> TextOperation {
        guard base <= latest else { throw .ahead(latest: latest) }
        guard let since = edits(of: key, after: base) else { throw .tooOld(oldest: start) }
        var rebased = operation
        for edit in since.edits {
            do {
                rebased = try rebased.transformed(against: edit.operation, side: .left)
            } catch {
                throw .notOnThatRevision
            }
        }
        return rebased
    }
}

/// Why an edit cannot be transformed to the current revision.
package enum TextRebaseError: Error, Hashable, Sendable {
    /// Its base is older than the oldest revision the log reaches back to.
    case tooOld(oldest: Int)
    /// Its base is newer than the log (another node's revision not seen here yet).
    case ahead(latest: Int)
    /// It deletes text that the revision it names did not hold there.
    case notOnThatRevision
}
