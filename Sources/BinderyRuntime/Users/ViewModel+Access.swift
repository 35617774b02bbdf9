/// The access rules of a view model's declaration, applied to whoever asks (``Viewer/current``).
extension ViewModel {
    /// Refuses a reader the declaration's ``ViewModelDeclaration/readable(by:)`` rule does not let.
    package func checkRead(by viewer: Viewer?) throws(ViewModelError) {
        try Self.declaration.readAccess.decision(for: viewer, self).enforce("you may not see \(Self.declaration.name)")
    }

    /// Refuses a write of `inputs` (by name) or a run of `command` by a client the view model's
    /// write rule, the inputs' or the command's own rule does not let.
    package func checkWrite(by viewer: Viewer?, inputs: [String] = [], command: String? = nil) throws(ViewModelError) {
        guard let viewer else { return }
        let declaration = Self.declaration
        try declaration.writeAccess.decision(for: viewer, self).enforce("you may not change \(declaration.name)")
        for name in inputs {
            guard let input = declaration.inputs.first(where: { $0.name == name }) else { continue }
            try input.writeAccess.decision(for: viewer, self).enforce("you may not change '\(name)'")
        }
        if let command, let declared = declaration.commands.first(where: { $0.name == command }) {
            try declared.executeAccess.decision(for: viewer, self).enforce("you may not run '\(command)'")
        }
    }

    /// Whether the client rendering now (``Viewer/current``) may run `command`: snapshots show a
    /// command it may not as disabled. Reads the viewer's user only when a rule depends on it, so
    /// a sign-in renders such a view model again.
    func mayRun(_ command: CommandDeclaration<Self>) -> Bool {
        let declaration = Self.declaration
        guard !(command.executeAccess.isEveryone && declaration.writeAccess.isEveryone), let viewer = Viewer.current else {
            return true
        }
        return declaration.writeAccess.decision(for: viewer, self) == .allowed
            && command.executeAccess.decision(for: viewer, self) == .allowed
    }
}

extension AccessDecision {
    /// Throws unless allowed: ``ViewModelError/signInRequired`` or ``ViewModelError/forbidden(reason:)``
    /// saying `reason`.
    package func enforce(_ reason: @autoclosure () -> String) throws(ViewModelError) {
        switch self {
        case .allowed: return
        case .signInRequired: throw .signInRequired
        case .forbidden: throw .forbidden(reason: reason())
        }
    }
}
