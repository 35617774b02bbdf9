/// The collaborative texts one render showed, collected while it runs (the view model's own
/// inputs and those of children in its collection outputs): the graph compares them with the
/// previous published version's to send watchers the edits in between.
final class ShownTexts: @unchecked Sendable {
    /// One collaborative input as a render showed it.
    struct Shown {
        /// The path of the view model the input belongs to.
        let path: String
        /// The input's name.
        let input: String
        /// The text it shows.
        let text: CollaborativeText
        /// The revision it showed.
        let revision: Int
    }

    /// The collector of the render running on this task, if it collects.
    @TaskLocal static var collecting: ShownTexts?

    /// What the render showed so far. Only the render's own task touches it.
    private(set) var shown: [Shown] = []
    /// The path of the view model being rendered now.
    private var path: String

    /// A collector for the render of the view model at `path`.
    init(path: String) {
        self.path = path
    }

    /// Notes that `input` of the view model being rendered showed `text` at `revision`.
    func add(input: String, text: CollaborativeText, revision: Int) {
        shown.append(Shown(path: path, input: input, text: text, revision: revision))
    }

    /// Runs `body` (the render of a child) with `path` as the view model being rendered.
    func within<T>(path child: String, _ body: () -> T) -> T {
        let parent = path
        path = child
        defer { path = parent }
        return body()
    }

    /// The `edits` event between two renders: for every text both showed at different
    /// revisions that changed in between, its edits (`"edits": null` when this node no longer
    /// holds them: the client reloads the text). Nil when no text changed.
    static func editsEvent(from previous: [Shown], to current: [Shown]) -> JSONValue? {
        var before: [String: Shown] = [:]
        for shown in previous { before[shown.path + "\u{0}" + shown.input] = shown }
        var texts: [JSONValue] = []
        for shown in current {
            guard let old = before[shown.path + "\u{0}" + shown.input], old.text.identity == shown.text.identity,
                old.revision < shown.revision
            else { continue }
            let edits = shown.text.recentEdits(old.revision, shown.revision)
            // The record changed but not this text: the snapshot's `texts` says its new revision.
            if let edits, edits.edits.isEmpty { continue }
            texts.append(
                .object([
                    "path": .string(shown.path), "input": .string(shown.input), "from": .int(old.revision),
                    "revision": .int(shown.revision), "edits": edits.map { .array($0.edits.map(\.json)) } ?? .null,
                ]))
        }
        return texts.isEmpty ? nil : .object(["texts": .array(texts)])
    }
}
