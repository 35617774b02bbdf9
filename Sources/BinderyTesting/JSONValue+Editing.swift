import BinderyRuntime
import Testing

/// Paths into a snapshot's JSON for a step's edits: one element of an array output, one member of
/// an object, changed in place (`$0.outputs["items"]?[0]?["completed"] = true`). Reading a path
/// gives nil where there is nothing; an edit with nowhere to land records a test failure where
/// the step is written, so it never does nothing in silence.
extension JSONValue {
    /// The element at `index` of an array, to assert one element of a list output in a step:
    ///
    /// ```swift
    /// try todos.execute("toggle", ["index": 0]) {
    ///     $0.outputs["items"]?[0]?["completed"] = true
    ///     $0.outputs["remaining"] = 1
    /// }
    /// ```
    ///
    /// Assigning replaces the element (`$0.outputs["items"]?[1] = ["title": "b", "completed": false]`);
    /// assigning nil removes it, the later elements moving up (JSON `null` is `.null`); add one with
    /// ``append(_:sourceLocation:)``. Reading an index the array does not have, or any index of a
    /// value that is not an array, gives nil. Assigning there, or editing through it
    /// (`?[2]?["completed"] = true` on two items), records a test failure and changes nothing.
    public subscript(index: Int, sourceLocation sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        get {
            guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
            return elements[index]
        }
        set {
            guard var array = elements(reaching: index, sourceLocation) else { return }
            if let newValue { array[index] = newValue } else { array.remove(at: index) }
            self = .array(array)
        }
    }

    /// The member `name` of an object: `$0.outputs["guest"]?["arrived"] = true`.
    ///
    /// Reads nil when the object has no such member, or the value is not an object. Assigning
    /// sets the member, adding it if new; nil removes it (JSON `null` is `.null`). Removing a
    /// member that is not there, assigning a member of a value that is not an object, or editing
    /// through either (`?["size"]?["width"] = 3` with no `size`), records a test failure naming
    /// the members there are, and changes nothing.
    public subscript(name: String, sourceLocation sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
        get { objectValue?[name] }
        set {
            guard case .object(var object) = self else {
                Issue.record("no member \"\(name)\" in \(kind): not an object", sourceLocation: sourceLocation)
                return
            }
            guard newValue != nil || object[name] != nil else {
                let names = object.isEmpty ? "none" : object.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                Issue.record("no member \"\(name)\" in the object (it has \(names))", sourceLocation: sourceLocation)
                return
            }
            object[name] = newValue
            self = .object(object)
        }
    }

    /// Adds `element` at the end of an array: `$0.outputs["items"]?.append(["title": "c", "completed": false])`.
    /// Records a test failure, and changes nothing, when the value is not an array.
    public mutating func append(_ element: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .array(var elements) = self else {
            Issue.record("cannot append to \(kind): not an array", sourceLocation: sourceLocation)
            return
        }
        elements.append(element)
        self = .array(elements)
    }

    /// The array's elements if `index` is one of them; otherwise records why not.
    private func elements(reaching index: Int, _ sourceLocation: SourceLocation) -> [JSONValue]? {
        guard case .array(let elements) = self else {
            Issue.record("no element \(index) in \(kind): not an array", sourceLocation: sourceLocation)
            return nil
        }
        guard elements.indices.contains(index) else {
            Issue.record("no element \(index) in an array of \(elements.count)", sourceLocation: sourceLocation)
            return nil
        }
        return elements
    }

    /// The value's JSON type with its article, for a failure: "a string", "an array", "null".
    private var kind: String {
        switch self {
        case .null: typeName
        case .array, .object: "an \(typeName)"
        default: "a \(typeName)"
        }
    }
}
