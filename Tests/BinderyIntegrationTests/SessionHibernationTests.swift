import BinderyBinding
import SeedApps
import BinderyRuntime
import BinderyStore
import BinderyTestSupport
import Testing

@Suite("Hibernation: quiet sessions leave memory for the store and come back as they were")
struct SessionHibernationTests {
    private typealias ManualNow = SessionStoreTests.ManualNow

    @Test func aQuietSessionLeavesMemoryAndItsNextRequestRestoresItAtTheSameVersion() async throws {
        let now = ManualNow()
        let store = SessionRegistry(
            limits: SessionLimits(hibernateAfter: .seconds(60)), screens: [Screen("form", title: "Form") { FormViewModel() }],
            store: MemoryStore(), now: now.read
        )
        let session = try await store.create()
        let written = try await session.graph.write("form", patch: ["phone": "13912345678"])
        now.advance(.seconds(30))
        #expect(await store.sweep() == 0, "used 30 s ago")
        now.advance(.seconds(31))
        #expect(await store.sweep() == 1)
        #expect(store.count == 0)
        #expect(store.session(for: session.token[...]) == nil, "not in memory any more")

        let back = try #require(try await store.restore(session.token[...]), "the store kept it")
        #expect(back !== session)
        let snapshot = try await back.graph.snapshot("form")
        #expect(snapshot.version == written.version, "the same version: an ETag from before still matches")
        #expect(snapshot.bytes == written.bytes)
        let next = try await back.graph.write("form", patch: ["phone": "13912345679"], ifVersion: [written.version])
        #expect(next.version == written.version + 1)
    }

    @Test func aWatchedSessionOrOneWithACommandRunningStaysInMemory() async throws {
        let now = ManualNow()
        let gate = Gate()
        let store = SessionRegistry(
            limits: SessionLimits(hibernateAfter: .seconds(60)), screens: [Screen("jobs", title: "Jobs") { JobsViewModel(gate: gate) }],
            store: MemoryStore(), now: now.read
        )
        let watched = try await store.create()
        store.streamChanged(watched, opened: true)
        let busy = try await store.create()
        _ = try await busy.graph.execute("jobs", command: "serial", argument: ["value": 1])
        now.advance(.seconds(120))
        #expect(await store.sweep() == 0, "a stream is open in one, a command runs in the other")
        #expect(store.session(for: watched.token[...]) === watched)

        gate.open()
        while !(await busy.graph.isQuiet) { await Task.yield() }
        store.streamChanged(watched, opened: false)
        now.advance(.seconds(120))
        #expect(await store.sweep() == 2)
        #expect(store.count == 0)
    }
}
