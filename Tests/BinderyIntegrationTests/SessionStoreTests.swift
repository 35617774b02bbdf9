import BinderyBinding
import BinderyStore
import BinderyRuntime
import Synchronization
import Testing

@Suite("Sessions: tokens, idle expiry and least-recently-used eviction (manual clock)")
struct SessionStoreTests {
    /// A clock the test moves by hand.
    final class ManualNow: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        func read() -> ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
    }

    @Test func tokensAre128RandomBitsAndUnknownTokensAreNotAdopted() async throws {
        let store = SessionRegistry(limits: SessionLimits(), screens: [])
        var tokens: [String] = []
        for _ in 0..<100 { tokens.append(try await store.create().token) }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(store.session(for: String(repeating: "0", count: 32)[...]) == nil)
        #expect(store.session(for: "not-a-token") == nil)
        #expect(store.count == 100)
    }

    @Test func aTokenFindsItsSessionOnlyInItsOwnLowercaseSpelling() async throws {
        let store = SessionRegistry(limits: SessionLimits(), screens: [])
        let session = try await store.create()
        #expect(session.token.allSatisfy { $0.isNumber || ("a"..."f").contains($0) })
        #expect(store.session(for: session.token[...]) === session)
        #expect(session.tokenHash == SessionTokenHash(token: session.token))
        #expect(store.session(for: session.token.uppercased()[...]) == nil)
        #expect(store.session(for: session.token.dropLast()) == nil)
        #expect(store.session(for: (session.token + "0")[...]) == nil)
    }

    @Test func idleSessionsExpireAndUseKeepsThemAlive() async throws {
        let now = ManualNow()
        let store = SessionRegistry(limits: SessionLimits(idleTimeout: .seconds(60)), screens: [], now: now.read)
        let kept = try await store.create()
        let idle = try await store.create()
        now.advance(.seconds(45))
        #expect(store.session(for: kept.token[...]) === kept)
        now.advance(.seconds(30))
        #expect(store.session(for: idle.token[...]) == nil, "idle for 75 s")
        #expect(store.session(for: kept.token[...]) === kept, "used 30 s ago")
        now.advance(.seconds(61))
        #expect(await store.sweep() == 1)
        #expect(store.count == 0)
    }

    @Test func theLeastRecentlyUsedSessionLeavesMemoryWhenFullAndComesBackFromTheStore() async throws {
        let now = ManualNow()
        let durable = MemoryStore()
        let store = SessionRegistry(limits: SessionLimits(maxSessions: 2), screens: [], store: durable, now: now.read)
        let first = try await store.create()
        now.advance(.seconds(1))
        let second = try await store.create()
        now.advance(.seconds(1))
        _ = store.session(for: first.token[...])
        now.advance(.seconds(1))
        let third = try await store.create()
        #expect(store.count == 2)
        #expect(store.session(for: second.token[...]) == nil, "least recently used")
        #expect(store.session(for: first.token[...]) === first)
        #expect(store.session(for: third.token[...]) === third)
        let restored = try #require(try await store.restore(second.token[...]), "the store still has it")
        #expect(restored !== second, "a new graph, restored from the store")
        #expect(restored.tokenHash == second.tokenHash)
        #expect(try await durable.session(SessionTokenHash(token: second.token)) != nil)
        #expect(try await store.restore(String(repeating: "0", count: 32)[...]) == nil, "an invented token is unknown")
    }

    @Test func theStoresTrimTakesSessionsMemoryLetGoNeverAQuietLiveOne() async throws {
        let now = ManualNow()
        let durable = MemoryStore()
        let store = SessionRegistry(limits: SessionLimits(maxSessions: 3), screens: [], store: durable, now: now.read)
        let quiet = try await store.create(from: "10.0.0.1")
        now.advance(.seconds(10))
        var flood: [Session] = []
        for _ in 0..<3 {
            flood.append(try await store.create(from: "10.0.0.2"))
            now.advance(.seconds(1))
        }
        // Memory let the flooder's oldest go; the store holds four, one over the maximum.
        #expect(store.session(for: flood[0].token[...]) == nil)
        await store.sweep()
        #expect(try await durable.session(SessionTokenHash(token: quiet.token)) != nil, "in use in memory: spared")
        #expect(try await durable.session(SessionTokenHash(token: flood[0].token)) == nil, "let go by memory: trimmed")
    }
}
