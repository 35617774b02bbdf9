import Foundation

/// Describes the JSON shape a `Decodable` type reads, by letting the type decode itself from a
/// decoder that answers every request with a placeholder and records what was asked: each key and
/// its type, which keys are optional, what an array holds. `[Item]` with `struct Item { var title:
/// String; var done: Bool? }` is `[{"done": "bool?", "title": "string"}]`.
///
/// It exists so that a persisted value's shape is derived from its type, with nothing declared:
/// renaming a field of `Item` changes the description, so the store notices. Swift has no
/// reflection of `Codable` layouts and no library in the package mirror derives one; this is the
/// usual technique (a recording decoder), kept to what synthesized conformances call.
///
/// A type whose decoding refuses the placeholders (an enum of strings, a URL, a custom
/// `init(from:)` that validates) is described by its type name instead, and marked opaque: the
/// store then checks every stored value of it by decoding, as nothing vouches for its shape.
enum ShapeProbe {
    /// The description of `type`, and whether it is only the type's name (opaque).
    static func describe<Value: Decodable>(_ type: Value.Type) -> (shape: JSONValue, isOpaque: Bool) {
        if let known = KnownShape.of(type) { return (.string(known.name), false) }
        let recorder = Recorder()
        do {
            _ = try Value(from: ProbeDecoder(node: recorder.root, depth: 0))
            return (recorder.root.description, false)
        } catch {
            return (.string("type " + String(reflecting: type)), true)
        }
    }

    /// The shapes of Foundation's types whose decoding a placeholder would not satisfy.
    struct KnownShape {
        let name: String
        let placeholder: Any

        static func of(_ type: Any.Type) -> KnownShape? {
            switch type {
            case is URL.Type: KnownShape(name: "url", placeholder: URL(fileURLWithPath: "/"))
            case is UUID.Type: KnownShape(name: "uuid", placeholder: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
            case is Date.Type: KnownShape(name: "date", placeholder: Date(timeIntervalSince1970: 0))
            case is Decimal.Type: KnownShape(name: "decimal", placeholder: Decimal(0))
            default: nil
            }
        }
    }

    /// What one decoder was asked, as a tree.
    final class Node {
        enum Kind {
            case unknown
            case scalar(String)
            case keyed([String: (node: Node, optional: Bool)])
            case array(Node)
            case map
        }
        var kind = Kind.unknown

        var description: JSONValue {
            switch kind {
            case .unknown: .string("any")
            case .scalar(let name): .string(name)
            case .map: .string("map")
            case .array(let element): .array([element.description])
            case .keyed(let members):
                .object(
                    members.mapValues { member in
                        member.optional ? .object(["optional": member.node.description]) : member.node.description
                    })
            }
        }
    }

    final class Recorder {
        let root = Node()
    }

    /// Nested deeper than this, a type is taken for recursive and described by its name.
    static let maximumDepth = 24

    struct Placeholder: Error {}

    struct ProbeDecoder: Decoder {
        let node: Node
        let depth: Int
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard depth < ShapeProbe.maximumDepth else { throw Placeholder() }
            if case .unknown = node.kind { node.kind = .keyed([:]) }
            return KeyedDecodingContainer(KeyedProbe<Key>(node: node, depth: depth))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard depth < ShapeProbe.maximumDepth else { throw Placeholder() }
            let element = Node()
            node.kind = .array(element)
            return UnkeyedProbe(element: element, depth: depth)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleProbe(node: node, depth: depth)
        }
    }

    /// A placeholder for `type`, recording its shape in `node`.
    static func placeholder<T: Decodable>(_ type: T.Type, node: Node, depth: Int) throws -> T {
        if let known = KnownShape.of(type), let value = known.placeholder as? T {
            node.kind = .scalar(known.name)
            return value
        }
        switch type {
        case is String.Type:
            node.kind = .scalar("string")
            return "" as! T
        case is Bool.Type:
            node.kind = .scalar("bool")
            return false as! T
        case is Double.Type, is Float.Type:
            node.kind = .scalar("number")
            guard let zero = (0.0 as Double) as? T ?? (Float(0) as? T) else { throw Placeholder() }
            return zero
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is Int16.Type, is Int8.Type,
            is UInt32.Type, is UInt16.Type, is UInt8.Type:
            node.kind = .scalar("integer")
            guard let zero = (type as? any FixedWidthInteger.Type).map({ $0.init(0) }) as? T else { throw Placeholder() }
            return zero
        default:
            return try T(from: ProbeDecoder(node: node, depth: depth + 1))
        }
    }

    struct KeyedProbe<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let node: Node
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        /// A dictionary's keys: none, so its values are not described (a map is a map).
        var allKeys: [Key] {
            node.kind = .map
            return []
        }

        func contains(_ key: Key) -> Bool { true }

        private func member(_ key: Key, optional: Bool) -> Node {
            guard case .keyed(var members) = node.kind else { return Node() }
            if let existing = members[key.stringValue] { return existing.node }
            let child = Node()
            members[key.stringValue] = (child, optional)
            node.kind = .keyed(members)
            return child
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            // Asked by hand-written code before decoding an optional: mark it, and say "present"
            // so its type is described too.
            _ = member(key, optional: true)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try ShapeProbe.placeholder(type, node: member(key, optional: false), depth: depth)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try ShapeProbe.placeholder(type, node: member(key, optional: true), depth: depth)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try ProbeDecoder(node: member(key, optional: false), depth: depth + 1).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ProbeDecoder(node: member(key, optional: false), depth: depth + 1).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ProbeDecoder(node: node, depth: depth + 1) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(node: member(key, optional: false), depth: depth + 1) }
    }

    /// An array of one element, whose shape describes all of them.
    final class UnkeyedProbe: UnkeyedDecodingContainer {
        let element: Node
        let depth: Int
        var currentIndex = 0
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var isAtEnd: Bool { currentIndex > 0 }

        init(element: Node, depth: Int) {
            self.element = element
            self.depth = depth
        }

        func decodeNil() throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try ShapeProbe.placeholder(type, node: element, depth: depth)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return try ProbeDecoder(node: element, depth: depth + 1).container(keyedBy: type)
        }

        func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return try ProbeDecoder(node: element, depth: depth + 1).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ProbeDecoder(node: element, depth: depth + 1) }
    }

    struct SingleProbe: SingleValueDecodingContainer {
        let node: Node
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool {
            // An optional at the top (`Int?`): described as its wrapped type's.
            false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try ShapeProbe.placeholder(type, node: node, depth: depth)
        }
    }
}
