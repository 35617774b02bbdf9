import Foundation
import Testing

@testable import BinderyStore

@Suite("Sessions, on every backend")
struct SessionContractTests {
    @Test(arguments: Backend.allCases)
    func createdSessionIsFoundByItsHash(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        let created = try await store.createSession(tokenHash(1), at: t0)
        #expect(created == StoredSession(tokenHash: tokenHash(1), createdAt: t0, lastUsedAt: t0))
        #expect(try await store.session(tokenHash(1)) == created)
        #expect(try await store.session(tokenHash(2)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func creatingATakenHashFails(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        await #expect(throws: StoreError.sessionExists(tokenHash(1))) {
            try await store.createSession(tokenHash(1), at: at(5))
        }
        #expect(try await store.session(tokenHash(1))?.createdAt == t0)
    }

    @Test(arguments: Backend.allCases)
    func touchMovesLastUseForwardOnly(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.touchSession(tokenHash(1), at: at(60))
        try await store.touchSession(tokenHash(1), at: at(30))
        #expect(try await store.session(tokenHash(1))?.lastUsedAt == at(60))
        await #expect(throws: StoreError.sessionNotFound(tokenHash(9))) {
            try await store.touchSession(tokenHash(9), at: at(60))
        }
    }

    @Test(arguments: Backend.allCases)
    func deletingASessionDeletesItsViewModelsAndLog(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        _ = try await store.createSession(tokenHash(2), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 1), write(key(2), expected: nil, version: 1)])

        #expect(try await store.deleteSession(tokenHash(1)))
        #expect(try await store.deleteSession(tokenHash(1)) == false)

        #expect(try await store.session(tokenHash(1)) == nil)
        #expect(try await store.viewModels(of: tokenHash(1)).isEmpty)
        #expect(try await store.versions(of: key(1), after: 0) == .unavailable)
        #expect(try await store.viewModels(of: tokenHash(2)).count == 1)
        // A new session under the same hash starts from nothing.
        _ = try await store.createSession(tokenHash(1), at: at(1))
        try await store.commit([write(key(1), expected: nil, version: 1)])
    }

    @Test(arguments: Backend.allCases)
    func purgeDeletesSessionsIdleSinceTheCutoff(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        for byte: UInt8 in 1...4 {
            _ = try await store.createSession(tokenHash(byte), at: t0)
        }
        try await store.touchSession(tokenHash(3), at: at(100))
        try await store.commit([write(key(4), expected: nil, version: 1, at: at(200))])
        try await store.touchSession(tokenHash(2), at: at(50))

        let purged = try await store.purgeSessions(idleSince: at(100))

        #expect(purged == [tokenHash(1), tokenHash(2)])
        #expect(try await store.session(tokenHash(1)) == nil)
        #expect(try await store.session(tokenHash(3)) != nil)
        #expect(try await store.viewModels(of: tokenHash(4)).count == 1)
        #expect(try await store.purgeSessions(idleSince: at(100)).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func evictionKeepsTheMostRecentlyUsed(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        for byte: UInt8 in 1...5 {
            _ = try await store.createSession(tokenHash(byte), at: at(Double(byte)))
        }
        try await store.touchSession(tokenHash(1), at: at(100))
        try await store.commit([write(key(2), expected: nil, version: 1, at: at(90))])

        let evicted = try await store.evictSessions(beyond: 3, sparing: [])

        #expect(evicted == [tokenHash(3), tokenHash(4)])
        #expect(try await store.session(tokenHash(5)) != nil)
        #expect(try await store.evictSessions(beyond: 3, sparing: []).isEmpty)
        #expect(try await store.evictSessions(beyond: 0, sparing: []) == [tokenHash(5), tokenHash(2), tokenHash(1)])
    }

    @Test(arguments: Backend.allCases)
    func evictionNeverTakesASparedSession(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        for byte: UInt8 in 1...5 {
            _ = try await store.createSession(tokenHash(byte), at: at(Double(byte)))
        }
        // 1 and 2 are the least recently used, but spared (in use in memory): the next ones go.
        let evicted = try await store.evictSessions(beyond: 3, sparing: [tokenHash(1), tokenHash(2)])
        #expect(evicted == [tokenHash(3), tokenHash(4)])
        #expect(try await store.session(tokenHash(1)) != nil)
        #expect(try await store.session(tokenHash(2)) != nil)
        // Only spared sessions left beyond the maximum: nothing goes.
        #expect(try await store.evictSessions(beyond: 1, sparing: [tokenHash(1), tokenHash(2), tokenHash(5)]).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func evictionBreaksTiesByCreationThenHash(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(3), at: t0)
        _ = try await store.createSession(tokenHash(1), at: t0)
        _ = try await store.createSession(tokenHash(2), at: at(-1))
        try await store.touchSession(tokenHash(2), at: t0)

        #expect(try await store.evictSessions(beyond: 1, sparing: []) == [tokenHash(2), tokenHash(1)])
    }
}
