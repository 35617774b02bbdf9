/// One input of a view model: a value a client may read and write (two-way binding).
///
/// Writing happens in two steps so that a patch of several inputs is all-or-nothing:
/// ``prepare(_:)`` checks a value and returns the assignment, which runs only once every
/// value of the patch has been checked.
public struct Input {
    /// The input's name, as it appears in snapshots and patches.
    public let name: String
    private let read: () -> JSONValue
    private let check: (JSONValue) throws(ViewModelError) -> () -> Void

    /// Creates an input from a reader and a checker that returns the assignment to perform.
    public init(
        name: String,
        read: @escaping () -> JSONValue,
        check: @escaping (JSONValue) throws(ViewModelError) -> () -> Void
    ) {
        self.name = name
        self.read = read
        self.check = check
    }

    /// The current value.
    public var value: JSONValue { read() }

    /// Checks `value` and returns the assignment; throws without changing anything.
    public func prepare(_ value: JSONValue) throws(ViewModelError) -> () -> Void {
        try check(value)
    }
}

extension Input {
    /// A string input bound to a property of a view model.
    public static func string<Model: AnyObject>(
        _ name: String,
        of model: Model,
        _ keyPath: ReferenceWritableKeyPath<Model, String>,
        maxLength: Int = 1024
    ) -> Input {
        Input(name: name, read: { .string(model[keyPath: keyPath]) }) { value throws(ViewModelError) in
            guard let text = value.stringValue else {
                throw .invalidInput(name: name, reason: "expected a string, got \(value.typeName)")
            }
            guard text.count <= maxLength else {
                throw .invalidInput(name: name, reason: "longer than \(maxLength) characters")
            }
            return { model[keyPath: keyPath] = text }
        }
    }

    /// An integer input bound to a property of a view model, limited to `range`.
    public static func integer<Model: AnyObject>(
        _ name: String,
        of model: Model,
        _ keyPath: ReferenceWritableKeyPath<Model, Int>,
        in range: ClosedRange<Int> = Int.min...Int.max
    ) -> Input {
        Input(name: name, read: { .int(model[keyPath: keyPath]) }) { value throws(ViewModelError) in
            guard let number = value.intValue else {
                throw .invalidInput(name: name, reason: "expected an integer, got \(value.typeName)")
            }
            guard range.contains(number) else {
                throw .invalidInput(name: name, reason: "must be in \(range.lowerBound)...\(range.upperBound)")
            }
            return { model[keyPath: keyPath] = number }
        }
    }
}
