/// The JSON shapes a view model type's declaration implies: its snapshot, its patch, its place
/// in a parent's collection.
extension ViewModelSchema {
    /// A command's state in a snapshot: `{"enabled", "executing", "error", "policy"}`.
    package static let commandState = Schema.named(
        "CommandState",
        .object([
            "enabled": .boolean,
            "executing": .boolean,
            "error": .nullable(ExecutionFailure.schema),
            "policy": .enumeration(["serial", "concurrent", "cancelPrevious", "queue"]),
        ])
    )

    /// `{"<input>": <value>, ...}` with every input.
    public var inputsShape: Schema {
        .named("\(name)Inputs", .object(Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.schema) })))
    }

    /// `{"<output>": <value>, ...}` with every output.
    public var outputsShape: Schema {
        .named("\(name)Outputs", .object(Dictionary(uniqueKeysWithValues: outputs.map { ($0.name, $0.schema) })))
    }

    /// `{"<command>": <state>, ...}` with every command.
    package var commandsShape: Schema {
        .named(
            "\(name)Commands",
            .object(Dictionary(uniqueKeysWithValues: commands.map { ($0.name, Self.commandState) }))
        )
    }

    /// A PATCH body: any subset of the inputs.
    package var patchShape: Schema {
        .named("\(name)Patch", .object(Dictionary(uniqueKeysWithValues: inputs.map { ($0.name, $0.schema) }), required: []))
    }

    /// `{"<collaborative input>": <revision>, ...}`; nil when it has no collaborative input.
    package var textsShape: Schema? {
        let texts = inputs.filter(\.isCollaborative)
        guard !texts.isEmpty else { return nil }
        return .named("\(name)Texts", .object(Dictionary(uniqueKeysWithValues: texts.map { ($0.name, Schema.integer(minimum: 0)) })))
    }

    /// The whole snapshot: `path`, `version`, `active`, `inputs`, `outputs`, `commands`, and
    /// `texts` with collaborative inputs.
    package var snapshotShape: Schema {
        .named(
            "\(name)Snapshot",
            Self.withTexts(
                textsShape,
                [
                    "path": .text,
                    "version": .integer(minimum: 1),
                    "active": .boolean,
                    "inputs": inputsShape,
                    "outputs": outputsShape,
                    "commands": commandsShape,
                ]))
    }

    /// An object of `members`, all required, and `texts` when there is one.
    private static func withTexts(_ texts: Schema?, _ members: [String: Schema]) -> Schema {
        guard let texts else { return .object(members) }
        return .object(members.merging(["texts": texts]) { $1 }, required: members.keys.sorted())
    }

    /// A command's answer: the snapshot, and `navigate` when the command navigates.
    package func resultShape(navigates: Bool, signsIn: Bool = false) -> Schema {
        guard navigates || signsIn, case .named(_, .object(var members, let required)) = snapshotShape else { return snapshotShape }
        if navigates { members["navigate"] = .text }
        guard signsIn else { return .named("\(name)Navigation", .object(members, required: required)) }
        // A sign-in's answer carries the session's new token (32 hex digits).
        members["token"] = .string(maxLength: 32, pattern: "^[0-9a-f]{32}$")
        return .named("\(name)SignedIn", .object(members, required: required + ["token"]))
    }

    /// One element of a parent's collection output: `id`, `path`, `inputs`, `outputs`,
    /// `commands`, and `texts` with collaborative inputs.
    package var childShape: Schema {
        .named(
            "\(name)Child",
            Self.withTexts(
                textsShape,
                [
                    "id": .text,
                    "path": .text,
                    "inputs": inputsShape,
                    "outputs": outputsShape,
                    "commands": commandsShape,
                ]))
    }
}
