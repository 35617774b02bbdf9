import BinderyRuntime

/// A view model's snapshot members as a test edits them: inputs, outputs and commands.
public struct SnapshotState: Equatable, Sendable {
    /// The inputs by name.
    public var inputs: [String: JSONValue]
    /// The outputs by name. A null output is `.null`; assigning nil removes the member.
    public var outputs: [String: JSONValue]
    /// Each command's state by name.
    public var commands: [String: CommandState]

    /// One command's state: `enabled`, `executing`, `error`, `policy`.
    public struct CommandState: Equatable, Sendable {
        /// Whether the command may be executed now.
        public var enabled: Bool
        /// Whether an execution runs or waits.
        public var executing: Bool
        /// The last execution's failure, as JSON (`null` when none).
        public var error: JSONValue
        /// The concurrency policy's name.
        public var policy: String

        /// Creates a command state.
        public init(enabled: Bool, executing: Bool, error: JSONValue, policy: String) {
            self.enabled = enabled
            self.executing = executing
            self.error = error
            self.policy = policy
        }
    }

    /// Reads the members of a snapshot.
    init(_ members: [String: JSONValue]) {
        inputs = members["inputs"]?.objectValue ?? [:]
        outputs = members["outputs"]?.objectValue ?? [:]
        commands = (members["commands"]?.objectValue ?? [:]).mapValues { value in
            let fields = value.objectValue ?? [:]
            return CommandState(
                enabled: fields["enabled"] == true, executing: fields["executing"] == true,
                error: fields["error"] ?? .null, policy: fields["policy"]?.stringValue ?? ""
            )
        }
    }

    /// One line per member that differs, inputs and outputs down to the element or member:
    /// `outputs.phoneValid: expected true, got false`, `outputs.items[1].completed: expected true, got false`.
    func differences(from actual: SnapshotState) -> [String] {
        Self.compare("inputs", inputs, actual.inputs) + Self.compare("outputs", outputs, actual.outputs)
            + Self.compare("commands", commands, actual.commands)
    }

    private static func compare<Value: Equatable>(
        _ group: String, _ expected: [String: Value], _ actual: [String: Value]
    ) -> [String] {
        Set(expected.keys).union(actual.keys).sorted().compactMap { name in
            let want = expected[name], got = actual[name]
            guard want != got else { return nil }
            return "\(group).\(name): expected \(want.map { "\($0)" } ?? "nothing"), got \(got.map { "\($0)" } ?? "nothing")"
        }
    }

    private static func compare(_ group: String, _ expected: [String: JSONValue], _ actual: [String: JSONValue]) -> [String] {
        differences(at: group, .object(expected), .object(actual))
    }

    /// Where `want` and `got` differ below `path`: one line per differing member or element, as
    /// JSON; arrays of different lengths, and values of different types, differ as a whole.
    private static func differences(at path: String, _ want: JSONValue?, _ got: JSONValue?) -> [String] {
        switch (want, got) {
        case (.object(let wanted)?, .object(let found)?):
            return Set(wanted.keys).union(found.keys).sorted().flatMap { name in
                wanted[name] == found[name] ? [] : differences(at: "\(path).\(name)", wanted[name], found[name])
            }
        case (.array(let wanted)?, .array(let found)?) where wanted.count == found.count:
            return wanted.indices.flatMap { index in
                wanted[index] == found[index] ? [] : differences(at: "\(path)[\(index)]", wanted[index], found[index])
            }
        default:
            let (expected, actual) = (text(want), text(got))
            // 1 and 1.0 are different values that print alike.
            let types = expected == actual ? " (\(want.map(numberKind) ?? ""), \(got.map(numberKind) ?? ""))" : ""
            return ["\(path): expected \(expected), got \(actual)\(types)"]
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        value.map { String(decoding: JSONWriter.bytes(of: $0), as: UTF8.self) } ?? "nothing"
    }

    private static func numberKind(_ value: JSONValue) -> String {
        switch value {
        case .int: "integer"
        case .double: "double"
        default: value.typeName
        }
    }
}
