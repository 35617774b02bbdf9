import BinderyRuntime
import Foundation
import Synchronization

/// Who is on which screen, and in which field: ephemeral, never stored.
///
/// A client says it is on a screen (`PUT /api/views/{path}/presence`) when it opens it, when its
/// focus moves to another field, and every ``heartbeat`` after; it is gone ``expiry`` after its
/// last word, or at once when it says it left (`DELETE`). Screens are keyed by their path, which
/// is the same in every session (`list/items/42/edit`), so everyone on an item's editor sees each
/// other; only screens showing shared texts take part (a session's own form has nobody else).
/// Every event stream of a screen gets `event: presence` with the others on it whenever that
/// list changes. With a shared store, each change is also relayed to the other nodes
/// (``PresenceMessage``), which keep their copy with the same expiry.
final class PresenceBoard: Sendable {
    /// How often a client repeats that it is here.
    static let heartbeat: Duration = .seconds(5)
    /// How long after its last word a client is taken as gone: two heartbeats missed, and a margin.
    static let expiry: TimeInterval = 12
    /// How often the server looks for clients gone without a word.
    static let sweepInterval: Duration = .seconds(2)
    /// The longest field name a client may report.
    static let maxFieldLength = 200

    /// One collaborator on one screen.
    struct Entry: Equatable {
        var collaborator: Collaborator
        /// The field they are in (an input name, or `child path/input`), or nil.
        var field: String?
        /// When they are taken as gone.
        var expires: Date
    }

    private struct Watcher {
        /// The collaborator watching (not shown to themselves).
        let viewer: String
        let send: @Sendable ([UInt8]) -> Void
    }

    private struct State {
        var screens: [String: [String: Entry]] = [:]
        var watchers: [String: [UUID: Watcher]] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Notes that `collaborator` is on the screen at `path`, in `field`; until `now + expiry`.
    /// Watchers of the screen hear of it when someone arrived or moved to another field.
    func arrive(_ collaborator: Collaborator, at path: String, field: String?, now: Date) {
        let entry = Entry(collaborator: collaborator, field: field, expires: now.addingTimeInterval(Self.expiry))
        change(path) { entries in
            let before = entries[collaborator.id]
            entries[collaborator.id] = entry
            return before?.field != field || before?.collaborator != collaborator
        }
    }

    /// Notes that `collaborator` left the screen at `path`.
    func leave(_ collaboratorID: String, from path: String) {
        change(path) { entries in entries.removeValue(forKey: collaboratorID) != nil }
    }

    /// Drops everyone whose last word is older than the expiry.
    func sweep(now: Date) {
        let paths = state.withLock { Array($0.screens.keys) }
        for path in paths {
            change(path) { entries in
                let count = entries.count
                entries = entries.filter { $0.value.expires > now }
                return entries.count != count
            }
        }
    }

    /// The entry of `collaboratorID` on the screen at `path`, if they are there.
    func entry(of collaboratorID: String, at path: String) -> Entry? {
        state.withLock { $0.screens[path]?[collaboratorID] }
    }

    /// Everyone on the screen at `path` but `viewer`, by name.
    func others(at path: String, besides viewer: String) -> [Entry] {
        state.withLock { Self.others(in: $0.screens[path] ?? [:], besides: viewer) }
    }

    /// Sends `send` the presence of the screen at `path` (the JSON `{"others": [...]}`) now, when
    /// someone else is there, and whenever it changes, until the answer's cancel is called.
    func watch(_ path: String, viewer: String, send: @escaping @Sendable ([UInt8]) -> Void) -> @Sendable () -> Void {
        let id = UUID()
        let current = state.withLock { state in
            state.watchers[path, default: [:]][id] = Watcher(viewer: viewer, send: send)
            return Self.others(in: state.screens[path] ?? [:], besides: viewer)
        }
        if !current.isEmpty { send(Self.payload(current)) }
        return { [weak self] in
            self?.state.withLock { state in
                state.watchers[path]?[id] = nil
                if state.watchers[path]?.isEmpty == true { state.watchers[path] = nil }
            }
        }
    }

    /// `{"others": [{"id", "name", "colour", "field"}]}`.
    static func json(_ entries: [Entry]) -> JSONValue {
        .object(["others": .array(entries.map(json))])
    }

    /// One collaborator's JSON: `{"id", "name", "colour", "field"}`.
    static func json(_ entry: Entry) -> JSONValue {
        .object([
            "id": .string(entry.collaborator.id), "name": .string(entry.collaborator.name),
            "colour": .string(entry.collaborator.colour), "field": entry.field.map(JSONValue.string) ?? .null,
        ])
    }

    /// The presence event's data, `{"others": [...]}`.
    static func payload(_ entries: [Entry]) -> [UInt8] {
        JSONWriter.bytes(of: json(entries))
    }

    /// Applies `update` to the entries of one screen; when it says something changed, every
    /// watcher of the screen is sent the others it now shows (outside the lock).
    private func change(_ path: String, _ update: (inout [String: Entry]) -> Bool) {
        let notices = state.withLock { state -> [(Watcher, [Entry])] in
            var entries = state.screens[path] ?? [:]
            guard update(&entries) else {
                state.screens[path] = entries.isEmpty ? nil : entries
                return []
            }
            state.screens[path] = entries.isEmpty ? nil : entries
            return (state.watchers[path] ?? [:]).values.map { ($0, Self.others(in: entries, besides: $0.viewer)) }
        }
        for (watcher, others) in notices { watcher.send(Self.payload(others)) }
    }

    private static func others(in entries: [String: Entry], besides viewer: String) -> [Entry] {
        entries.values.filter { $0.collaborator.id != viewer }
            .sorted { ($0.collaborator.name, $0.collaborator.id) < ($1.collaborator.name, $1.collaborator.id) }
    }
}
