import Testing

/// Lets other tasks run, on the caller's actor and on the global executor, for `rounds` turns.
/// Never sleeps in real time.
public func yieldToOtherTasks(rounds: Int = 1) async {
    for _ in 0..<rounds {
        await Task.detached(priority: .background) { await Task.yield() }.value
        await Task.yield()
    }
}

/// Lets other tasks run until `condition` holds; records an issue when it still does not hold
/// after `rounds` turns. Never sleeps in real time.
@discardableResult
public func settle(
    rounds: Int = 2000, sourceLocation: SourceLocation = #_sourceLocation, until condition: () async -> Bool
) async -> Bool {
    for _ in 0..<rounds {
        if await condition() { return true }
        await yieldToOtherTasks()
    }
    Issue.record("condition did not hold after \(rounds) turns", sourceLocation: sourceLocation)
    return false
}
