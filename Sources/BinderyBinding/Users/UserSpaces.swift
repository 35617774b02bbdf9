import BinderyRuntime
import BinderyStore
import Crypto
import Foundation
import Synchronization

/// The records of the users whose sessions this node holds (``UserRecords``): each user's live in
/// a record space of their own in the store, loaded when the first of their sessions arrives here
/// and let go when the last one leaves, so a node holds the records of the users it serves only.
///
/// A session signed in as a user holds one claim on that user's records (``acquire(_:)``) from
/// before it is served until it leaves memory (``release(_:)``).
final class UserSpaces: Sendable {
    private struct Held {
        var claims: Int
        var loading: Task<Void, any Error>
        var space: SessionTokenHash
    }

    private let store: any SessionStateStore
    /// The models of records per user, by name.
    private let models: [(name: String, connection: SharedModelConnection.PerUser)]
    private let held = Mutex<[String: Held]>([:])
    /// The store's record of what this node holds: a user's space, while their records are here.
    private let holds: HeldSpaces

    /// The spaces of `models`' per-user models in `store`; `holds` tells a shared store which are here.
    init(store: any SessionStateStore, models: [any SharedModel], holds: HeldSpaces) {
        self.store = store
        self.holds = holds
        self.models = models.compactMap { model in model.connection.perUser.map { (model.name, $0) } }
    }

    /// Whether the app has records per user at all.
    var isEmpty: Bool { models.isEmpty }

    /// The key of the record space of the user `id` in the store: a hash of the id, never a
    /// session's (no token hashes to it).
    static func space(of id: String) -> SessionTokenHash {
        SessionTokenHash(bytes: Data(SHA256.hash(data: Data("bindery user records\u{0}\(id)".utf8))))!
    }

    /// Claims the records of the user `id` for a session and waits until they are loaded; throws
    /// (and claims nothing) when the store cannot load them.
    func acquire(_ id: String) async throws {
        guard !models.isEmpty else { return }
        let loading = held.withLock { held -> Task<Void, any Error> in
            if var entry = held[id] {
                entry.claims += 1
                held[id] = entry
                return entry.loading
            }
            let space = Self.space(of: id)
            let task = Task { try await self.load(id, space: space) }
            held[id] = Held(claims: 1, loading: task, space: space)
            return task
        }
        do {
            try await loading.value
        } catch {
            release(id)
            throw error
        }
    }

    /// Gives back one claim on the records of the user `id`; the last lets them go.
    func release(_ id: String) {
        guard !models.isEmpty else { return }
        let last = held.withLock { held -> Task<Void, any Error>? in
            guard var entry = held[id] else { return nil }
            entry.claims -= 1
            guard entry.claims == 0 else {
                held[id] = entry
                return nil
            }
            held[id] = nil
            return entry.loading
        }
        guard let last else { return }
        // Let go once any load under way has ended, unless a new claim came meanwhile: checked and
        // closed in one step, so a claim that comes after finds nothing loaded and loads again.
        Task {
            let loaded = (try? await last.value) != nil
            held.withLock { held in
                guard held[id] == nil else { return }
                for model in models { model.connection.close(id) }
            }
            // The load's own hold on the space: a new claim's load holds it again.
            if loaded { holds.release(Self.space(of: id)) }
        }
    }

    /// The user whose record space `space` is, if their records are loaded here.
    func user(ofSpace space: SessionTokenHash) -> String? {
        held.withLock { held in held.first { $0.value.space == space }?.key }
    }

    /// The users whose records are loaded here.
    var loadedUsers: [String] { held.withLock { Array($0.keys) } }

    /// The per-user models, for the follower.
    var perUserModels: [(name: String, connection: SharedModelConnection.PerUser)] { models }

    private func load(_ id: String, space: SessionTokenHash) async throws {
        // Held before the records are read; let go when they are closed (``release(_:)``).
        try await holds.acquire(space)
        do {
            for model in models {
                let storage = try await StoreRecordStorage.open(store: store, model: model.name, space: space)
                try await model.connection.open(id, storage)
            }
        } catch {
            holds.release(space)
            throw error
        }
    }
}
