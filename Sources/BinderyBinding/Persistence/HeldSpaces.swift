import BinderyStore
import Synchronization

/// What this node keeps in memory of a shared store, as the store must know it: a session, a
/// user's record space, the shared models' space. The store sends a node another node's writes
/// only to the spaces the node holds (``ChangeFeed/hold(_:)``), so a write to a session nobody
/// else holds notifies nobody.
///
/// Claims are counted per space: a session loaded here and a load under way each hold one. The
/// first claim holds the space in the store before the claimant reads it (so no write between
/// the read and the hold goes unseen); the last claim let go releases it. The store's calls for
/// one space run one after another in the order the counts changed, so a release decided before
/// a new claim never lands after that claim's hold. Without a change feed (memory, SQLite: one
/// node) every call returns at once.
final class HeldSpaces: Sendable {
    private struct Entry {
        var claims = 0
        /// The last store call queued for this space (hold or release); the next waits for it.
        var tail: Task<Void, any Error>?
    }

    /// The store's two calls: hold a space for this node, release it.
    struct Calls: Sendable {
        var hold: @Sendable (SessionTokenHash) async throws -> Void
        var release: @Sendable (SessionTokenHash) async throws -> Void
    }

    private let calls: Calls?
    private let entries = Mutex<[SessionTokenHash: Entry]>([:])

    /// The holds of this node on `feed`; none when the store has no change feed.
    convenience init(feed: (any ChangeFeed)?) {
        self.init(calls: feed.map { feed in Calls(hold: { try await feed.hold($0) }, release: { try await feed.release($0) }) })
    }

    /// Holds made with `calls` (tests pass their own); nil makes every call a no-op.
    init(calls: Calls?) {
        self.calls = calls
    }

    /// Claims `space` and returns once the store holds it for this node; throws (and claims
    /// nothing) when the store cannot record it.
    func acquire(_ space: SessionTokenHash) async throws {
        guard let calls else { return }
        let tail = entries.withLock { entries -> Task<Void, any Error>? in
            var entry = entries[space] ?? Entry()
            entry.claims += 1
            if entry.claims == 1 {
                let previous = entry.tail
                entry.tail = Task {
                    _ = await previous?.result
                    try await calls.hold(space)
                }
            }
            entries[space] = entry
            return entry.tail
        }
        do {
            try await tail?.value
        } catch {
            release(space)
            throw error
        }
    }

    /// Gives back one claim on `space`; the last one releases it in the store (in the background).
    func release(_ space: SessionTokenHash) {
        guard let calls else { return }
        entries.withLock { entries in
            guard var entry = entries[space], entry.claims > 0 else { return }
            entry.claims -= 1
            guard entry.claims == 0 else {
                entries[space] = entry
                return
            }
            let previous = entry.tail
            let release = Task {
                _ = await previous?.result
                try await calls.release(space)
            }
            entry.tail = release
            entries[space] = entry
            // Forget the entry once its release is done, unless a claim came meanwhile.
            Task {
                _ = await release.result
                self.entries.withLock { entries in
                    if let current = entries[space], current.claims == 0, current.tail == release {
                        entries[space] = nil
                    }
                }
            }
        }
    }

    /// How many claims `space` has here (for tests).
    func claims(on space: SessionTokenHash) -> Int {
        entries.withLock { $0[space]?.claims ?? 0 }
    }
}
