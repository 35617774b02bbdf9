/// A check that did not hold: what was expected, and what came instead.
public struct CheckFailure: Error, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// Throws a ``CheckFailure`` saying `message` unless `condition` holds.
public func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(message()) }
}

/// Prints a step that passed, one line each, for the test reading the output.
public func passed(_ step: String) {
    print("passed: \(step)")
}
