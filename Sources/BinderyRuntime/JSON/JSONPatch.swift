/// RFC 6902 JSON Patch documents between two versions of a snapshot, so a watcher of a large view
/// model receives what changed instead of the whole snapshot.
///
/// Objects are compared member by member, recursively; an array of the same length element by
/// element, and one whose length changed is replaced whole (insertions and moves are not
/// searched for: snapshots' arrays are short or replaced together).
package enum JSONPatch {
    /// The operations that turn `old` into `new` (`add`, `remove`, `replace`), in an order that
    /// applies cleanly; empty when they are equal.
    package static func diff(from old: JSONValue, to new: JSONValue) -> [JSONValue] {
        var operations: [JSONValue] = []
        diff(old, new, at: "", into: &operations)
        return operations
    }

    /// A patch from the snapshot at version `base` to the one at `version`: it first tests that
    /// the document is at `base` (a client holding another version fails the test and fetches a
    /// whole snapshot instead), then applies what changed and moves `version`.
    package static func between(base: Int, _ old: JSONValue, version: Int, _ new: JSONValue) -> [JSONValue] {
        [operation("test", "/version", .int(base))]
            + diff(from: old, to: new)
            + [operation("replace", "/version", .int(version))]
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, at path: String, into operations: inout [JSONValue]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for key in before.keys.sorted() where after[key] == nil {
                operations.append(operation("remove", path + "/" + escape(key)))
            }
            for key in after.keys.sorted() {
                let member = path + "/" + escape(key)
                if let previous = before[key] {
                    diff(previous, after[key]!, at: member, into: &operations)
                } else {
                    operations.append(operation("add", member, after[key]!))
                }
            }
        case (.array(let before), .array(let after)) where before.count == after.count:
            for index in before.indices {
                diff(before[index], after[index], at: path + "/\(index)", into: &operations)
            }
        default:
            operations.append(operation("replace", path, new))
        }
    }

    private static func operation(_ op: String, _ path: String, _ value: JSONValue? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["op": .string(op), "path": .string(path)]
        if let value { members["value"] = value }
        return .object(members)
    }

    /// A member name as a JSON Pointer token (RFC 6901): `~` is `~0`, `/` is `~1`. By Unicode
    /// scalars: a "/" followed by a combining mark is one `Character` that is not "/" (found by
    /// `bindery-fuzz`).
    static func escape(_ key: String) -> String {
        var token = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            switch scalar {
            case "~": token.append(contentsOf: "~0".unicodeScalars)
            case "/": token.append(contentsOf: "~1".unicodeScalars)
            default: token.append(scalar)
            }
        }
        return String(token)
    }

    /// A JSON Pointer token as the member name it stands for: `~1` is `/`, `~0` is `~`.
    static func unescape(_ token: Substring.UnicodeScalarView) -> String {
        var name = String.UnicodeScalarView()
        var afterTilde = false
        for scalar in token {
            if afterTilde {
                afterTilde = false
                switch scalar {
                case "0": name.append("~")
                case "1": name.append("/")
                default: name.append("~"); name.append(scalar)
                }
            } else if scalar == "~" {
                afterTilde = true
            } else {
                name.append(scalar)
            }
        }
        if afterTilde { name.append("~") }
        return String(name)
    }
}

extension JSONPatch {
    /// Why a patch did not apply.
    package struct ApplyError: Error, Equatable {
        /// The failing operation's index and what was wrong.
        package let reason: String
    }

    /// Applies the `test`, `add`, `remove` and `replace` operations of an RFC 6902 patch to
    /// `document` (what ``diff(from:to:)`` and ``between(base:_:version:_:)`` produce); for Swift
    /// clients and tests. Throws when an operation does not apply (a failed `test` included).
    package static func apply(_ operations: [JSONValue], to document: JSONValue) throws(ApplyError) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            guard let op = operation.objectValue?["op"]?.stringValue,
                let path = operation.objectValue?["path"]?.stringValue
            else { throw ApplyError(reason: "operation \(index) has no op or path") }
            let tokens = try pointer(path)
            let value = operation.objectValue?["value"]
            switch op {
            case "test":
                guard try read(result, tokens) == value else { throw ApplyError(reason: "operation \(index): test of \(path) failed") }
            case "add", "replace":
                guard let value else { throw ApplyError(reason: "operation \(index) has no value") }
                result = try write(result, tokens[...], value, replacing: op == "replace")
            case "remove":
                result = try write(result, tokens[...], nil, replacing: true)
            default:
                throw ApplyError(reason: "operation \(index): \(op) is not supported")
            }
        }
        return result
    }

    private static func pointer(_ path: String) throws(ApplyError) -> [String] {
        guard !path.isEmpty else { return [] }
        // By Unicode scalars, as `escape` writes them.
        let scalars = Substring(path).unicodeScalars
        guard scalars.first == "/" else { throw ApplyError(reason: "\(path) is not a JSON Pointer") }
        return scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(unescape)
    }

    private static func read(_ document: JSONValue, _ tokens: [String]) throws(ApplyError) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let members): guard let next = members[token] else { return nil }; current = next
            case .array(let items): guard let index = Int(token), items.indices.contains(index) else { return nil }; current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// `document` with the value at `tokens` set (`add`/`replace`) or removed (`value` nil).
    private static func write(
        _ document: JSONValue, _ tokens: ArraySlice<String>, _ value: JSONValue?, replacing: Bool
    ) throws(ApplyError) -> JSONValue {
        guard let token = tokens.first else {
            guard let value else { throw ApplyError(reason: "cannot remove the whole document") }
            return value
        }
        let rest = tokens.dropFirst()
        switch document {
        case .object(var members):
            if rest.isEmpty {
                guard !replacing || members[token] != nil else { throw ApplyError(reason: "no member \(token)") }
                members[token] = value
            } else {
                guard let child = members[token] else { throw ApplyError(reason: "no member \(token)") }
                members[token] = try write(child, rest, value, replacing: replacing)
            }
            return .object(members)
        case .array(var items):
            let index = token == "-" ? items.count : Int(token) ?? -1
            if rest.isEmpty {
                if let value, !replacing {
                    guard (0...items.count).contains(index) else { throw ApplyError(reason: "index \(token) out of range") }
                    items.insert(value, at: index)
                } else {
                    guard items.indices.contains(index) else { throw ApplyError(reason: "index \(token) out of range") }
                    if let value { items[index] = value } else { items.remove(at: index) }
                }
            } else {
                guard items.indices.contains(index) else { throw ApplyError(reason: "index \(token) out of range") }
                items[index] = try write(items[index], rest, value, replacing: replacing)
            }
            return .array(items)
        default:
            throw ApplyError(reason: "\(token) is below a value that is neither an object nor an array")
        }
    }
}
