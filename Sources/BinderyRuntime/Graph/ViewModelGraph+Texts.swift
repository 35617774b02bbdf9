/// Collaborative texts: reading one with its revision, and applying a client's edit.
extension ViewModelGraph {
    /// The collaborative input `name` of the view model at `path`: its text and revision, and
    /// with `after` the edits since that revision (nil when they are no longer kept).
    package func text(
        _ path: String, input name: String, after: Int?
    ) async throws(ViewModelError) -> (text: String, revision: Int, edits: TextEdits??) {
        let text = try await collaborativeInput(path, name).text
        guard let current = text.read() else { throw .notFound(path: path) }
        guard let after else { return (current.text, current.revision, nil) }
        guard after <= current.revision, let edits = await text.catchUp(after) else { return (current.text, current.revision, .some(nil)) }
        let upToCurrent = TextEdits(from: after, revision: current.revision, edits: edits.edits.filter { $0.revision <= current.revision })
        return (current.text, current.revision, upToCurrent)
    }

    /// Applies a client's edit to the collaborative input `name` of the view model at `path`:
    /// transformed against what was applied since its base, checked, committed. Answers the
    /// edits from its base up to and including it.
    package func edit(_ path: String, input name: String, _ request: TextEditRequest) async throws(ViewModelError) -> TextEdits {
        let host = try await preparedHost(at: path)
        try host.viewModel.checkWrite(by: viewer, inputs: [name])
        let (text, check) = try await collaborativeInput(path, name)
        switch await asViewer({ () async -> Result<TextEdits, TextEditError> in await text.apply(request, check) }) {
        case .success(let edits):
            return edits
        case .failure(let error):
            switch error {
            case .notFound: throw .notFound(path: path)
            case .tooOld(let oldest): throw .textRevisionTooOld(name: name, oldest: oldest)
            case .invalid(let reason): throw .invalidTextEdit(name: name, reason: reason)
            case .refused(let reason): throw .invalidInput(name: name, reason: reason)
            case .conflict: throw .versionConflict
            case .unavailable: throw .storeUnavailable
            case .signInRequired: throw .signInRequired
            case .forbidden: throw .forbidden(reason: "you may not change '\(name)'")
            }
        }
    }

    /// Whether the view model at `path` shows collaborative texts (its own or its children's):
    /// a screen people share, where presence means something.
    package func showsCollaborativeTexts(at path: String) async throws(ViewModelError) -> Bool {
        try await preparedHost(at: path).viewModel.showsCollaborativeTexts
    }

    private func collaborativeInput(
        _ path: String, _ name: String
    ) async throws(ViewModelError) -> (text: CollaborativeText, check: @Sendable (String) -> String?) {
        let host = try await preparedHost(at: path)
        guard let input = host.viewModel.collaborativeInput(name) else { throw .notCollaborative(name: name) }
        return input
    }
}
