import BinderyStore
import Foundation

/// Keeps this node's deferred commands alive for the other nodes sharing the store, and notices
/// the commands of nodes that went away.
///
/// Every third of the lease it renews the lease of each command running here, then asks every
/// live session to check the commands it shows as running on another node: one whose lease
/// lapsed (its node died) is shown interrupted, in a new version every node pushes. So a
/// command of a dead node shows as interrupted at most a lease and a third after the node's
/// last renewal.
struct CommandLeaseKeeper: Sendable {
    let feed: any ChangeFeed
    let sessions: SessionRegistry
    let lease: Duration
    let clock: any Clock<Duration>
    var now: @Sendable () -> Date = { Date() }

    /// Runs until the task is cancelled.
    func run() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: lease / 3) } catch { return }
            await renewAndExpire()
        }
    }

    /// One round: renews the leases of the commands running here, then expires lapsed ones.
    func renewAndExpire() async {
        let live = sessions.liveSessions
        var running: [ViewModelKey: String] = [:]
        for session in live {
            for (path, name) in await session.graph.commandsRunningHere() {
                running[ViewModelKey(session: session.tokenHash, path: path)] = name
            }
        }
        // A store that cannot be reached renews nothing; the next round tries again.
        try? await feed.renewCommandLeases(running, at: now())
        for session in live { await session.graph.expireLapsedCommands() }
    }
}
