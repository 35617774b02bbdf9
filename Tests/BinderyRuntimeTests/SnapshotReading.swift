import BinderyRuntime
import Foundation

extension EncodedSnapshot {
    /// The snapshot decoded back into JSON, for assertions.
    var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))) ?? .null }

    /// An output's value.
    func output(_ name: String) -> JSONValue? { json.objectValue?["outputs"]?.objectValue?[name] }

    /// An input's value.
    func input(_ name: String) -> JSONValue? { json.objectValue?["inputs"]?.objectValue?[name] }

    /// A command's member (`enabled`, `executing`, `error`).
    func command(_ name: String, _ member: String) -> JSONValue? {
        json.objectValue?["commands"]?.objectValue?[name]?.objectValue?[member]
    }

    /// Whether the snapshot says the view model is active.
    var isActive: Bool { json.objectValue?["active"] == .bool(true) }
}
