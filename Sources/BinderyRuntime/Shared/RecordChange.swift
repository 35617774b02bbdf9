import Foundation

/// What one version of a shared record changed, beyond its new value: the edits of its
/// collaborative texts and, for a deletion, the record as it was and who deleted it. Stored with
/// the version (in the store's bounded version log), so every node transforms against the same
/// edits and can undo a deletion.
///
/// Its JSON: `{"edits": {"<text key>": {"id": "<client id>" | null, "ops": [json0]}},
/// "deleted": <record JSON>, "by": "<who>"}`, each member present only when it applies.
package struct RecordChange: Hashable, Sendable {
    /// The text edits, by text key (`name`, `steps/<id>/name`).
    package var edits: [String: TextEdit]
    /// The record's JSON before a deletion.
    package var deleted: JSONValue?
    /// Who made the change (a presence name), when known.
    package var by: String?

    /// A change.
    package init(edits: [String: TextEdit] = [:], deleted: JSONValue? = nil, by: String? = nil) {
        self.edits = edits
        self.deleted = deleted
        self.by = by
    }

    /// The stored bytes.
    package var data: Data {
        var members: [String: JSONValue] = [:]
        if !edits.isEmpty {
            members["edits"] = .object(edits.mapValues { .object(["id": .optional($0.id), "ops": $0.operation.json]) })
        }
        if let deleted { members["deleted"] = deleted }
        if let by { members["by"] = .string(by) }
        return Data(JSONWriter.bytes(of: .object(members)))
    }

    /// The change stored as `data` at `version`; an unreadable one reads as no change.
    package init(data: Data, version: Int) {
        guard let json = try? JSONValue(parsing: Array(data)), let members = json.objectValue else {
            self.init()
            return
        }
        var edits: [String: TextEdit] = [:]
        for (key, value) in members["edits"]?.objectValue ?? [:] {
            guard let object = value.objectValue, let ops = object["ops"], let operation = try? TextOperation(json: ops) else { continue }
            edits[key] = TextEdit(id: object["id"]?.stringValue, revision: version, operation: operation)
        }
        self.init(edits: edits, deleted: members["deleted"], by: members["by"]?.stringValue)
    }
}
