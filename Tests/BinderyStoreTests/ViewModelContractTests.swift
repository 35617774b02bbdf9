import Foundation
import Testing

@testable import BinderyStore

@Suite("View-model writes, on every backend")
struct ViewModelContractTests {
    @Test(arguments: Backend.allCases)
    func writesAreLoadedBackOrderedByPath(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([
            write(key(1, "list"), expected: nil, version: 1), write(key(1, "form"), expected: nil, version: 4),
        ])
        try await store.commit([write(key(1, "form"), expected: 4, version: 5)])

        let records = try await store.viewModels(of: tokenHash(1))

        #expect(records.map(\.key.path) == ["form", "list"])
        #expect(records[0] == ViewModelRecord(key: key(1, "form"), version: 5, state: bytes("{\"v\":5}"), command: nil))
        #expect(records[1].version == 1)
        #expect(try await store.viewModels(of: tokenHash(2)).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aWriteMustExpectTheStoredVersion(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 1)])

        await #expect(throws: StoreError.conflict(key(1), expected: nil, stored: 1)) {
            try await store.commit([write(key(1), expected: nil, version: 2)])
        }
        await #expect(throws: StoreError.conflict(key(1), expected: 3, stored: 1)) {
            try await store.commit([write(key(1), expected: 3, version: 4)])
        }
        await #expect(throws: StoreError.conflict(key(1, "list"), expected: 1, stored: nil)) {
            try await store.commit([write(key(1, "list"), expected: 1, version: 2)])
        }
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [1])
    }

    @Test(arguments: Backend.allCases)
    func versionsNeverGoBackwards(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 3)])

        await #expect(throws: StoreError.versionNotIncreasing(key(1), expected: 3, version: 3)) {
            try await store.commit([write(key(1), expected: 3, version: 3)])
        }
        try await store.commit([write(key(1), expected: 3, version: 7)])
        #expect(try await store.viewModels(of: tokenHash(1)).first?.version == 7)
    }

    @Test(arguments: Backend.allCases)
    func aBatchIsAllOrNothing(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1, "list"), expected: nil, version: 1)])

        await #expect(throws: StoreError.conflict(key(1, "list"), expected: nil, stored: 1)) {
            try await store.commit([
                write(key(1, "form"), expected: nil, version: 1), write(key(1, "list"), expected: nil, version: 2),
            ])
        }
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.key.path) == ["list"])

        // Writes in one batch chain: the second expects the first.
        try await store.commit([
            write(key(1, "list"), expected: 1, version: 2), write(key(1, "list"), expected: 2, version: 3),
        ])
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [3])
    }

    @Test(arguments: Backend.allCases)
    func writingToAnUnknownSessionFails(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        await #expect(throws: StoreError.sessionNotFound(tokenHash(7))) {
            try await store.commit([write(key(7), expected: nil, version: 1)])
        }
    }

    @Test(arguments: Backend.allCases)
    func aWriteIsAUseOfItsSessionMovedByMoreThanTheGranularity(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 1, at: at(40))])
        try await store.commit([write(key(1), expected: 1, version: 2, at: at(20))])
        #expect(try await store.session(tokenHash(1))?.lastUsedAt == at(40))
        // Within the granularity a write leaves the last use where it is (no row rewritten).
        try await store.commit([write(key(1), expected: 2, version: 3, at: at(40 + StoredSession.writeUseGranularity))])
        #expect(try await store.session(tokenHash(1))?.lastUsedAt == at(40))
        try await store.commit([write(key(1), expected: 3, version: 4, at: at(41 + StoredSession.writeUseGranularity))])
        #expect(try await store.session(tokenHash(1))?.lastUsedAt == at(41 + StoredSession.writeUseGranularity))
    }

    @Test(arguments: Backend.allCases)
    func runningCommandsAreMarkedInterruptedOnce(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        let load = DeferredCommand(name: "load", startedAt: at(3))
        _ = try await store.createSession(tokenHash(1), at: t0)
        _ = try await store.createSession(tokenHash(2), at: t0)
        try await store.commit([
            write(key(1, "list"), expected: nil, version: 1, command: load),
            write(key(1, "form"), expected: nil, version: 1),
            write(key(2, "list"), expected: nil, version: 1, command: load),
        ])

        #expect(try await store.markRunningCommandsInterrupted() == [key(1, "list"), key(2, "list")])
        #expect(try await store.markRunningCommandsInterrupted().isEmpty)

        let records = try await store.viewModels(of: tokenHash(1))
        #expect(records.map(\.command) == [nil, .interrupted(load)])
        // The next write says what runs now: here, nothing.
        try await store.commit([write(key(1, "list"), expected: 1, version: 2)])
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.command) == [nil, nil])
    }

    @Test(arguments: Backend.allCases)
    func aWriteReplacesTheRunningCommand(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        let first = DeferredCommand(name: "load", startedAt: at(1))
        let second = DeferredCommand(name: "refresh", startedAt: at(2))
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 1, command: first)])
        try await store.commit([write(key(1), expected: 1, version: 2, command: second)])
        #expect(try await store.viewModels(of: tokenHash(1)).first?.command == .running(second))
    }
}
