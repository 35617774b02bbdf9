/// How long to wait before trying again: exponential from `initial` up to `maximum`, each delay
/// drawn between half and all of it (jitter), so clients cut off together do not come back together.
struct Backoff: Sendable {
    var initial: Duration = .milliseconds(200)
    var maximum: Duration = .seconds(5)

    /// The delay before attempt `attempt` (1 for the first retry); `random` is in 0...1.
    func delay(attempt: Int, random: Double) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let ceiling = min(initial * (1 << doublings), maximum)
        return ceiling * (0.5 + 0.5 * min(max(random, 0), 1))
    }

    /// Sleeps before attempt `attempt`, or as long as the server asked (`Retry-After`). Throws
    /// `CancellationError` when the task is cancelled meanwhile.
    func wait(attempt: Int, retryAfter: Duration? = nil) async throws {
        try await Task.sleep(for: retryAfter ?? delay(attempt: attempt, random: Double.random(in: 0...1)))
    }
}
