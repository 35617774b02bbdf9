import BinderyRuntime
import BinderyStore
import Crypto
import Foundation

/// The members of a view model's stored state that hold sensitive values, sealed with the
/// server's ``SealingKey`` (AES-GCM) before they reach the store and opened when they come back.
/// A sealed member is `{"$sealed": "<base64>"}`, bound to its place (the session's key, the view
/// model's path, the member's name): moved elsewhere it does not open.
enum SealedMembers {
    /// The member's name a sealed value is kept under.
    static let marker = "$sealed"

    /// `state` with each of `members` sealed; unchanged when it has none of them.
    static func seal(_ state: JSONValue, members: [String], key: SealingKey, place: ViewModelKey) -> JSONValue {
        guard !members.isEmpty, case .object(var object) = state else { return state }
        for name in members {
            guard let value = object[name],
                let box = try? AES.GCM.seal(
                    Data(JSONWriter.bytes(of: value)), using: key.key, authenticating: Self.place(place, name)
                ), let combined = box.combined
            else {
                object[name] = nil
                continue
            }
            object[name] = [marker: .string(combined.base64EncodedString())]
        }
        return .object(object)
    }

    /// `state` with every sealed member opened; one that does not open (another key: a node or a
    /// process that did not seal it) is left out, so the view model shows its own start.
    static func open(_ state: JSONValue, key: SealingKey, place: ViewModelKey) -> JSONValue {
        guard case .object(var object) = state else { return state }
        for (name, value) in object {
            guard case .object(let sealed) = value, sealed.count == 1, case .string(let text)? = sealed[marker] else { continue }
            object[name] = Data(base64Encoded: text)
                .flatMap { try? AES.GCM.SealedBox(combined: $0) }
                .flatMap { try? AES.GCM.open($0, using: key.key, authenticating: Self.place(place, name)) }
                .flatMap { try? JSONValue(parsing: [UInt8]($0)) }
        }
        return .object(object)
    }

    /// What a sealed value is bound to.
    private static func place(_ key: ViewModelKey, _ member: String) -> Data {
        key.session.bytes + Data(key.path.utf8) + Data([0]) + Data(member.utf8)
    }
}
