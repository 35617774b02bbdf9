import Foundation
import Testing

@testable import BinderyStore

/// What the store keeps of users, on every backend: a sign-in replaces a session's credential
/// under the same key, a user's sessions are found and deleted together, record spaces are never
/// expired nor trimmed.
@Suite("Users and credentials, on every backend")
struct UserContractTests {
    private let lilei = StoredUser(id: "u-lilei", profile: Data(#"{"id":"u-lilei","name":"Li Lei"}"#.utf8))

    @Test(arguments: Backend.allCases)
    func signInReplacesTheCredentialAndKeepsTheKeyAndState(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.commit([write(key(1), expected: nil, version: 1)])

        try await store.signIn(tokenHash(1), replacing: tokenHash(1), with: tokenHash(2), as: lilei)

        #expect(try await store.session(tokenHash(1)) == nil, "the old token is found no more")
        let found = try #require(try await store.session(tokenHash(2)))
        #expect(found.tokenHash == tokenHash(1), "the key stays the first token's hash")
        #expect(found.user == lilei)
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [1], "the state stays under the key")
        try await store.commit([write(key(1), expected: 1, version: 2)])
    }

    @Test(arguments: Backend.allCases)
    func aSignInWithAReplacedCredentialIsRefused(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.signIn(tokenHash(1), replacing: tokenHash(1), with: tokenHash(2), as: lilei)

        // A second sign-in that still believes in the first token loses: nothing changes.
        await #expect(throws: StoreError.sessionNotFound(tokenHash(1))) {
            try await store.signIn(tokenHash(1), replacing: tokenHash(1), with: tokenHash(3), as: lilei)
        }
        #expect(try await store.session(tokenHash(3)) == nil)
        #expect(try await store.session(tokenHash(2))?.tokenHash == tokenHash(1))
        await #expect(throws: StoreError.sessionNotFound(tokenHash(9))) {
            try await store.signIn(tokenHash(9), replacing: tokenHash(9), with: tokenHash(4), as: lilei)
        }
    }

    @Test(arguments: Backend.allCases)
    func aReplacedCredentialCannotBeTakenByANewSession(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0)
        try await store.signIn(tokenHash(1), replacing: tokenHash(1), with: tokenHash(2), as: lilei)
        await #expect(throws: StoreError.sessionExists(tokenHash(2))) {
            try await store.createSession(tokenHash(2), at: at(1))
        }
        await #expect(throws: StoreError.sessionExists(tokenHash(1))) {
            try await store.createSession(tokenHash(1), at: at(1))
        }
    }

    @Test(arguments: Backend.allCases)
    func signingOutEverywhereDeletesEveryOneOfTheUsersSessions(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        let hanmeimei = StoredUser(id: "u-hanmeimei", profile: Data("{}".utf8))
        for byte in UInt8(1)...4 { _ = try await store.createSession(tokenHash(byte), at: t0) }
        try await store.signIn(tokenHash(1), replacing: tokenHash(1), with: tokenHash(11), as: lilei)
        try await store.signIn(tokenHash(2), replacing: tokenHash(2), with: tokenHash(12), as: lilei)
        try await store.signIn(tokenHash(3), replacing: tokenHash(3), with: tokenHash(13), as: hanmeimei)
        try await store.commit([write(key(1), expected: nil, version: 1)])

        let ended = try await store.deleteSessions(ofUser: "u-lilei")

        #expect(Set(ended) == [tokenHash(1), tokenHash(2)])
        #expect(try await store.session(tokenHash(11)) == nil)
        #expect(try await store.session(tokenHash(12)) == nil)
        #expect(try await store.viewModels(of: tokenHash(1)).isEmpty)
        #expect(try await store.session(tokenHash(13))?.user == hanmeimei)
        #expect(try await store.session(tokenHash(4)) != nil, "an anonymous session is nobody's")
        #expect(try await store.deleteSessions(ofUser: "u-lilei").isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func recordSpacesAreNeverPurgedNorTrimmed(_ backend: Backend) async throws {
        let store = try await backend.makeStore()
        _ = try await store.createSession(tokenHash(1), at: t0, kind: .records)
        _ = try await store.createSession(tokenHash(2), at: t0)
        _ = try await store.createSession(tokenHash(3), at: at(10))
        try await store.commit([write(key(1), expected: nil, version: 1)])

        #expect(try await store.purgeSessions(idleSince: at(5)) == [tokenHash(2)])
        #expect(try await store.evictSessions(beyond: 0, sparing: []) == [tokenHash(3)])

        #expect(try await store.session(tokenHash(1)) != nil)
        #expect(try await store.viewModels(of: tokenHash(1)).map(\.version) == [1])
    }
}
