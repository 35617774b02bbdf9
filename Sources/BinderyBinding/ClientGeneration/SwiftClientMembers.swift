import BinderyRuntime

/// The members of a generated client type: its initialisers, one property per input and output,
/// one method (and a `can…` property) per command, one navigation per child route.
struct SwiftClientMembers {
    /// The view model type.
    let schema: ViewModelSchema

    /// The names of the stored properties, inputs and outputs, which the commands and child routes
    /// must not take (an output `canStartTimer` would clash with the state of a command `startTimer`).
    private var taken: Set<String> {
        Set(["remote", "session"] + schema.inputs.map(\.name) + schema.outputs.map(\.name))
    }

    /// `name`, or `name + suffix` when a property already has it.
    private func free(_ name: String, else suffix: String) -> String {
        taken.contains(name) ? name + suffix : name
    }

    /// Every member's lines, blank lines between them, not indented.
    func declarations(screen: String?) -> [String] {
        let members =
            [stored] + initialisers(screen: screen) + schema.inputs.map(input) + schema.outputs.map(output)
            + schema.commands.flatMap(command) + schema.children.map(child)
        return Array(members.joined(separator: [""]))
    }

    /// The stored properties.
    private var stored: [String] {
        [
            "/// The remote view model this wraps: its snapshot, problem, connection, `follow()`.",
            "public let remote: RemoteViewModel",
            "/// The session, for the child routes.",
            "public let session: BinderySession",
        ]
    }

    /// `init(session:path:)`, and `init(session:)` for a screen's root.
    private func initialisers(screen: String?) -> [[String]] {
        var result: [[String]] = []
        if let screen {
            result.append([
                "/// The screen at `\(screen)` in `session` (not yet read: call `remote.follow()`).",
                "public init(session: BinderySession) {",
                "    self.init(session: session, path: \(SwiftNames.literal(screen)))",
                "}",
            ])
        }
        result.append([
            "/// The view model at `path` in `session` (not yet read: call `remote.follow()`).",
            "public init(session: BinderySession, path: String) {",
            "    self.session = session",
            "    self.remote = session.view(path)",
            "}",
        ])
        return result
    }

    /// A read-write property (a collaborative text is written as text operations by the client).
    private func input(_ input: ViewModelSchema.Input) -> [String] {
        let type = SwiftClientType(input.schema)
        let name = SwiftNames.literal(input.name)
        var about = "/// Input `\(input.name)` (\(input.schema.clientDescription))"
        let read = type.read(json: "remote[input: \(name)]") { "remote.input(\(name), as: \($0).self)" }
        if input.isCollaborative {
            about +=
                ", a collaborative text: reading shows this client's text with others' edits merged in;"
                + " assigning sends the difference as text operations."
        } else {
            about += ": reading shows what the server has (or what this client is writing); assigning writes it."
        }
        if input.isSensitive { about += " A secret: tools mask it." }
        return [
            about,
            "public var \(SwiftNames.identifier(input.name)): \(type.spelling) {",
            "    get { \(read) }",
            "    nonmutating set { remote[input: \(name)] = \(type.json("newValue")) }",
            "}",
        ]
    }

    /// A read-only property.
    private func output(_ output: ViewModelSchema.Output) -> [String] {
        let type = SwiftClientType(output.schema)
        let name = SwiftNames.literal(output.name)
        let read = type.read(json: "remote.output(\(name))") { "remote.output(\(name), as: \($0).self)" }
        return [
            "/// Output `\(output.name)` (\(output.schema.clientDescription)).",
            "public var \(SwiftNames.identifier(output.name)): \(type.spelling) { \(read) }",
        ]
    }

    /// The command's method and its `can…` property.
    private func command(_ command: ViewModelSchema.Command) -> [[String]] {
        let summary = SwiftNames.oneLine(command.summary)
        let kind = command.isDeferred ? "deferred" : "immediate"
        let about =
            "/// Command `\(command.name)` (\(kind), policy \(command.policy.name))"
            + (summary.isEmpty ? "." : ": \(summary)")
        let call = SwiftClientArgument(command.argument)
        let run = "remote.run(\(SwiftNames.literal(command.name))\(call.map { ", with: \($0.expression)" } ?? ""))"
        let method =
            [
                about,
                "/// Answers the snapshot once it has finished\(command.navigates ? " (with `navigate`)" : ""); throws the server's problem.",
                "@discardableResult",
                "public func \(SwiftNames.identifier(free(command.name, else: "Command")))(\(call?.parameters ?? "")) async throws -> JSONValue {",
            ] + (call?.preparation ?? []).map { "    " + $0 } + [
                "    \(call?.preparation.isEmpty == false ? "return " : "")try await \(run)",
                "}",
            ]
        let enabled = [
            "/// Whether `\(command.name)` may run now.",
            "public var \(SwiftNames.identifier(free("can" + SwiftNames.capitalized(command.name), else: "Command"))): Bool { remote.command(\(SwiftNames.literal(command.name)))?.enabled ?? false }",
        ]
        return [method, enabled]
    }

    /// The child route's typed navigation: a method named after the route taking its parameter
    /// (`item(id:)`), or a property named after a fixed page's segment (`edit`).
    private func child(_ child: ViewModelSchema.Child) -> [String] {
        let type = SwiftClientFile.typeName(of: child.viewModel)
        let about =
            "/// Child route `\(child.name)` (\(SwiftNames.oneLine(child.title))): the view model at `\(child.pattern)` below this one, a new `RemoteViewModel` each time."
        let prefix = "remote.path + " + SwiftNames.literal("/" + (child.segment.isEmpty ? "" : child.segment + (child.hasParameter ? "/" : "")))
        guard child.hasParameter else {
            return [
                about,
                "public var \(SwiftNames.identifier(free(child.segment, else: "Page"))): \(type) { \(type)(session: session, path: \(prefix)) }",
            ]
        }
        let parameter = SwiftNames.identifier(child.parameter)
        let parameterType = SwiftClientType(child.parameterSchema)
        let component = parameterType == .string ? "\(parameter).pathSegment" : "String(describing: \(parameter)).pathSegment"
        return [
            about,
            "public func \(SwiftNames.identifier(free(child.name, else: "Route")))(\(parameter): \(parameterType.spelling)) -> \(type) {",
            "    \(type)(session: session, path: \(prefix) + \(component))",
            "}",
        ]
    }
}
