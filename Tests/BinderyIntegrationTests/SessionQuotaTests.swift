import BinderyBinding
import BinderyRuntime
import BinderyStore
import Testing

/// One client must not be able to push everyone else's sessions out (issue 15, finding 1).
@Suite("Sessions per address: creation rate, own eviction first, open streams keep sessions alive")
struct SessionQuotaTests {
    typealias ManualNow = SessionStoreTests.ManualNow

    @Test func anAddressCreatingTooFastIsRefusedWhileOthersStillCreate() async throws {
        let now = ManualNow()
        let store = SessionRegistry(
            limits: SessionLimits(creationBurst: 5, creationsPerSecond: 1), screens: [], now: now.read
        )
        for _ in 0..<5 { _ = try await store.create(from: "10.0.0.1") }
        await #expect(throws: ViewModelError.tooManySessions(retryAfter: 1)) {
            try await store.create(from: "10.0.0.1")
        }
        _ = try await store.create(from: "10.0.0.2")
        now.advance(.seconds(1))
        _ = try await store.create(from: "10.0.0.1")
        #expect(store.count == 7)
    }

    @Test func ipv6AddressesShareAQuotaPerSlash64() async throws {
        let store = SessionRegistry(limits: SessionLimits(creationBurst: 2, creationsPerSecond: 0.001), screens: [])
        _ = try await store.create(from: "2001:db8:1:2::1")
        _ = try await store.create(from: "2001:db8:1:2:ffff::7")
        await #expect(throws: ViewModelError.self) { try await store.create(from: "2001:db8:1:2::99") }
        _ = try await store.create(from: "2001:db8:1:3::1")
    }

    @Test func anAddressOverItsLimitLosesItsOwnOldestSessionNeverAnotherClients() async throws {
        let now = ManualNow()
        let durable = MemoryStore()
        let store = SessionRegistry(
            limits: SessionLimits(maxSessions: 100, perAddress: 3), screens: [], store: durable, now: now.read
        )
        let victim = try await store.create(from: "10.0.0.9")
        var flood: [Session] = []
        for _ in 0..<10 {
            now.advance(.seconds(1))
            flood.append(try await store.create(from: "10.0.0.1"))
        }
        #expect(store.session(for: victim.token[...]) === victim, "the other client keeps its session")
        #expect(store.count == 4)
        for old in flood.prefix(7) {
            #expect(store.session(for: old.token[...]) == nil)
        }
        // The surplus is deleted from the store too, so it cannot push others out there either.
        for _ in 0..<100 where try await durable.session(flood[0].tokenHash) != nil { await Task.yield() }
        #expect(try await durable.session(flood[0].tokenHash) == nil)
        #expect(try await durable.session(victim.tokenHash) != nil)
    }

    @Test func aSessionWrittenToOutlivesNewerEmptySessionsOfItsAddress() async throws {
        // Everyone behind one NAT shares an address: a flood of sessions from it must push out its
        // own empty sessions, not the work of a user behind the same address.
        let now = ManualNow()
        let store = SessionRegistry(limits: SessionLimits(maxSessions: 100, perAddress: 3), screens: [], now: now.read)
        let user = try await store.create(from: "10.0.0.1")
        user.noteWritten()
        var flood: [Session] = []
        for _ in 0..<10 {
            now.advance(.seconds(1))
            flood.append(try await store.create(from: "10.0.0.1"))
        }
        #expect(store.session(for: user.token[...]) === user, "the oldest, but the only one written to")
        #expect(store.count == 3)
        #expect(flood.suffix(2).allSatisfy { store.session(for: $0.token[...]) === $0 })
        // Once every session of the address was written to, the least recently used gives way.
        now.advance(.seconds(1))
        for session in flood.suffix(2) {
            _ = store.session(for: session.token[...])
            session.noteWritten()
        }
        now.advance(.seconds(1))
        _ = try await store.create(from: "10.0.0.1")
        #expect(store.session(for: user.token[...]) == nil)
    }

    @Test func whenMemoryIsFullTheBusiestAddressLosesASessionFirst() async throws {
        let now = ManualNow()
        let store = SessionRegistry(limits: SessionLimits(maxSessions: 4, perAddress: 10), screens: [], now: now.read)
        let quiet = try await store.create(from: "10.0.0.9")
        for _ in 0..<6 {
            now.advance(.seconds(1))
            _ = try await store.create(from: "10.0.0.1")
        }
        #expect(store.count == 4)
        #expect(store.session(for: quiet.token[...]) === quiet, "the oldest session overall, but not the flooder's")
    }

    @Test func anOpenEventStreamKeepsItsSessionAlivePastTheIdleTimeout() async throws {
        let now = ManualNow()
        let store = SessionRegistry(limits: SessionLimits(idleTimeout: .seconds(60)), screens: [], now: now.read)
        let watching = try await store.create()
        let idle = try await store.create()
        store.streamChanged(watching, opened: true)
        now.advance(.seconds(600))
        #expect(await store.sweep() == 1, "only the session without a stream expires")
        #expect(store.session(for: watching.token[...]) === watching)
        #expect(store.session(for: idle.token[...]) == nil)
        store.streamChanged(watching, opened: false)
        now.advance(.seconds(59))
        #expect(store.session(for: watching.token[...]) === watching, "idle time counts from the stream's end")
        now.advance(.seconds(61))
        #expect(store.session(for: watching.token[...]) == nil)
    }
}
