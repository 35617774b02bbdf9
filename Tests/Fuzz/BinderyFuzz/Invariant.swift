/// Stops the run when an invariant does not hold: libFuzzer sees the trap, saves the input under
/// artifacts/ and prints `message`.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    fatalError("invariant broken: \(message())")
}

/// A short printable excerpt of a value for failure messages.
func excerpt(_ value: Any) -> String {
    String(String(describing: value).prefix(300))
}
