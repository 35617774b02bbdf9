import Foundation
import Testing

@testable import BinderyStore

@Suite("Version log, on every backend")
struct VersionLogContractTests {
    /// Writes versions 1...count to `key(1)`, one second apart, each with a snapshot.
    private func writeVersions(_ range: ClosedRange<Int>, to store: any SessionStateStore) async throws {
        for version in range {
            let expected = version == 1 ? nil : version - 1
            try await store.commit([write(key(1), expected: expected, version: version, at: at(Double(version)))])
        }
    }

    private func storeWithSession(
        _ backend: Backend, _ policy: VersionLogPolicy = VersionLogPolicy()
    ) async throws
        -> any SessionStateStore
    {
        let store = try await backend.makeStore(logPolicy: policy)
        _ = try await store.createSession(tokenHash(1), at: t0)
        return store
    }

    @Test(arguments: Backend.allCases)
    func versionsAfterComeInOrderWithTheirSnapshots(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend)
        try await writeVersions(1...4, to: store)

        let history = try await store.versions(of: key(1), after: 2)

        #expect(
            history
                == .versions([
                    LoggedVersion(version: 3, snapshot: bytes("snapshot 3"), loggedAt: at(3)),
                    LoggedVersion(version: 4, snapshot: bytes("snapshot 4"), loggedAt: at(4)),
                ])
        )
        #expect(versionNumbers(try await store.versions(of: key(1), after: 0)) == [1, 2, 3, 4])
        #expect(try await store.versions(of: key(1), after: 4) == .versions([]))
    }

    @Test(arguments: Backend.allCases)
    func everyKeptVersionIsListedForATimeline(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend, VersionLogPolicy(maxCount: 3, maxAge: 3600))
        try await writeVersions(1...5, to: store)
        let kept = try await store.loggedVersions(of: key(1))
        #expect(kept.map(\.version) == [3, 4, 5])
        #expect(kept.last == LoggedVersion(version: 5, snapshot: bytes("snapshot 5"), loggedAt: at(5)))
        #expect(try await store.loggedVersions(of: key(1, "list")).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func unknownVersionsAndViewModelsAreUnavailable(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend)
        try await writeVersions(1...2, to: store)
        #expect(try await store.versions(of: key(1), after: 3) == .unavailable)
        #expect(try await store.versions(of: key(1), after: -1) == .unavailable)
        #expect(try await store.versions(of: key(1, "list"), after: 0) == .unavailable)
    }

    @Test(arguments: Backend.allCases)
    func pruningByCountLeavesTheLastEntries(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend, VersionLogPolicy(maxCount: 3, maxAge: 3600))
        try await writeVersions(1...6, to: store)

        #expect(versionNumbers(try await store.versions(of: key(1), after: 3)) == [4, 5, 6])
        #expect(try await store.versions(of: key(1), after: 2) == .unavailable)
        #expect(try await store.versions(of: key(1), after: 0) == .unavailable)
    }

    @Test(arguments: Backend.allCases)
    func pruningByCountCountsVersionsNotEntries(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend, VersionLogPolicy(maxCount: 3, maxAge: 3600))
        try await writeVersions(1...2, to: store)
        try await store.commit([write(key(1), expected: 2, version: 6, at: at(6))])

        // The log reaches 3 versions back from 6: 4, 5 and 6, of which only 6 was written.
        #expect(versionNumbers(try await store.versions(of: key(1), after: 3)) == [6])
        #expect(versionNumbers(try await store.versions(of: key(1), after: 5)) == [6])
        #expect(try await store.versions(of: key(1), after: 2) == .unavailable)
    }

    @Test(arguments: Backend.allCases)
    func pruningByAgeDropsOldEntries(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend, VersionLogPolicy(maxCount: 100, maxAge: 60))
        try await writeVersions(1...3, to: store)
        try await store.commit([write(key(1), expected: 3, version: 4, at: at(62.5))])

        // At 62.5 s the cutoff is 2.5 s: versions 1 (1 s) and 2 (2 s) are too old.
        #expect(versionNumbers(try await store.versions(of: key(1), after: 2)) == [3, 4])
        #expect(try await store.versions(of: key(1), after: 1) == .unavailable)
    }

    @Test(arguments: Backend.allCases)
    func aWriteWithoutSnapshotRestartsTheLog(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend)
        try await writeVersions(1...2, to: store)
        try await store.commit([write(key(1), expected: 2, version: 3, logged: false)])
        try await store.commit([write(key(1), expected: 3, version: 4)])

        #expect(try await store.versions(of: key(1), after: 2) == .unavailable)
        #expect(versionNumbers(try await store.versions(of: key(1), after: 3)) == [4])
    }

    @Test(arguments: Backend.allCases)
    func skippedVersionsDoNotBreakTheLog(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend)
        try await store.commit([write(key(1), expected: nil, version: 5)])
        try await store.commit([write(key(1), expected: 5, version: 9)])

        #expect(versionNumbers(try await store.versions(of: key(1), after: 4)) == [5, 9])
        #expect(versionNumbers(try await store.versions(of: key(1), after: 6)) == [9])
        #expect(try await store.versions(of: key(1), after: 3) == .unavailable)
    }

    @Test(arguments: Backend.allCases)
    func logsAreKeptPerViewModel(_ backend: Backend) async throws {
        let store = try await storeWithSession(backend, VersionLogPolicy(maxCount: 2, maxAge: 3600))
        try await writeVersions(1...5, to: store)
        try await store.commit([write(key(1, "list"), expected: nil, version: 1)])

        #expect(versionNumbers(try await store.versions(of: key(1, "list"), after: 0)) == [1])
        #expect(versionNumbers(try await store.versions(of: key(1), after: 3)) == [4, 5])
    }
}
