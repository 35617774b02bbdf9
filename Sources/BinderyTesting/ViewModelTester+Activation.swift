import BinderyRuntime
import Testing

/// Activation (ReactiveViewModel's `active`): the view model's `whileActive()` work, started
/// and cancelled by the script as a watcher's arrival and departure would.
extension ViewModelTester {
    /// Makes the view model active: starts its `whileActive()` work in a task on this actor,
    /// lets it run until it waits (on the test's clock, say), and asserts the change `update`
    /// describes, such as `loading: true`.
    ///
    /// The work goes on until it ends by itself (``settle(sourceLocation:_:)`` after the test
    /// advanced its clock) or the test deactivates the view model; ``ViewModelTester/finish(sourceLocation:)`` fails otherwise.
    public func activate(sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void) async {
        #expect(!isActive, "the view model is already active", sourceLocation: sourceLocation)
        guard !isActive else { return }
        isActive = true
        let model = self.model
        activation = Viewer.$current.withValue(viewer) {
            Task { [self] in
                await model.whileActive()
                isActive = false
            }
        }
        await runUntilQuiet()
        assertChange(update, sourceLocation: sourceLocation)
    }

    /// Makes the view model inactive: cancels its activation work, waits until the work has
    /// ended, and asserts the change `update` describes. Fails when the work was not running.
    public func deactivate(sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void) async {
        #expect(isActive, "the view model's activation work is not running", sourceLocation: sourceLocation)
        if let activation {
            activation.cancel()
            await activation.value
        }
        activation = nil
        assertChange(update, sourceLocation: sourceLocation)
    }
}
