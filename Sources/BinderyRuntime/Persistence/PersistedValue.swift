import Foundation

/// One value a view model keeps across restarts besides its inputs: a property, by name.
public struct PersistedValue<Model: AnyObject>: Sendable {
    /// The name it is kept under (not an input's).
    public let name: String
    let save: @Sendable (Model) -> JSONValue
    let restore: @Sendable (Model, JSONValue) -> Void
    /// Its type's shape (``ShapeProbe``).
    let describe: @Sendable () -> (shape: JSONValue, isOpaque: Bool)
    /// Why a stored value cannot be read back whole: it does not decode, or decoding drops part
    /// of it; nil when it can.
    let check: @Sendable (JSONValue) -> String?

    /// Keeps the property at `keyPath` as JSON under `name`. Its type's shape is part of the
    /// declaration's: a stored value that no longer decodes, or would lose a field, is never
    /// read (see ``PersistedState/migrations(_:)``).
    public static func value<Value: Codable & Sendable>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable
    ) -> Self {
        PersistedValue(
            name: name,
            save: { model in JSONValue(encoding: model[keyPath: keyPath]) ?? .null },
            restore: { model, json in
                if let value = json.decoded(as: Value.self) { model[keyPath: keyPath] = value }
            },
            describe: { ShapeProbe.describe(Value.self) },
            check: { json in Self.loss(reading: json, as: Value.self) }
        )
    }

    /// Why `json` does not read back whole as a `Value`; nil when it does.
    static func loss<Value: Codable>(reading json: JSONValue, as type: Value.Type) -> String? {
        guard json != .null else { return nil }
        let value: Value
        do {
            value = try JSONDecoder().decode(Value.self, from: Data(JSONWriter.bytes(of: json)))
        } catch {
            return "does not decode as \(Value.self): \(DecodingFailure(error))"
        }
        guard let written = JSONValue(encoding: value) else { return "does not encode again as \(Value.self)" }
        return written.loss(of: json).map { "would lose \($0.isEmpty ? "its value" : $0) when read as \(Value.self)" }
    }
}

/// A `DecodingError` in a few words: what was missing or wrong, and where.
struct DecodingFailure: CustomStringConvertible {
    let error: any Error

    init(_ error: any Error) {
        self.error = error
    }

    var description: String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "no `\(key.stringValue)`\(place(context.codingPath))"
        case .typeMismatch(let type, let context): return "not a \(type)\(place(context.codingPath))"
        case .valueNotFound(let type, let context): return "no \(type) value\(place(context.codingPath))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(place(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
