import BinderyRuntime
import BinderyStore
import Foundation

/// Asks the store a cheap question now and then, so `/readyz` says 503 while the database is
/// unreachable (a load balancer then sends traffic elsewhere).
struct StoreProbe: Sendable {
    let store: any SessionStateStore
    let clock: any Clock<Duration>
    /// How long an answer may take before the store counts as unreachable.
    let timeout: Duration

    /// A token hash no session has: looking it up touches the database and changes nothing.
    private static let probe = SessionTokenHash(bytes: Data(repeating: 0, count: SessionTokenHash.byteCount))!

    /// Whether the store answered within the timeout.
    func isReachable() async -> Bool {
        let store = store
        let answered = await firstResult(within: timeout, on: clock) { () -> Bool in
            do {
                _ = try await store.session(Self.probe)
                return true
            } catch {
                return false
            }
        }
        return answered == true
    }
}
