import Clocks

extension TestClock where Duration == Swift.Duration {
    /// Runs `body` while advancing this clock by `step` every few milliseconds (real time).
    ///
    /// For work that starts sleeping on this clock only some moments after the request that
    /// started it was answered (an upstream call behind a 202): a single `advance` could come
    /// before the sleep exists on a busy machine, and the work would never wake.
    func advancing<T>(by step: Duration, during body: () async throws -> T) async rethrows -> T {
        let ticker = Task {
            while !Task.isCancelled {
                await self.advance(by: step)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { ticker.cancel() }
        return try await body()
    }
}
