import Foundation

/// What a deploy's check of stored state reads and moves: every stored state grouped by where it
/// lives and the shape that wrote it, the states of one group, and the state set aside because a
/// deploy could not read it. An embedded or shared store (SQLite, PostgreSQL) offers it; a
/// memory store starts empty and has nothing to check.
package protocol StoredStateAudit: Sendable {
    /// How many states are stored per place (record space or session), path and shape.
    func storedShapes() async throws -> [StoredShapeGroup]

    /// Every state stored in `group` (its place, path and shape).
    func storedStates(in group: StoredShapeGroup) async throws -> [ViewModelRecord]

    /// Moves the state of `key` (at `version`, or nothing if it moved on) out of the way, byte for
    /// byte with its shape and `reason`: the session then has no state there. Returns whether it
    /// moved.
    @discardableResult
    func setAside(_ key: ViewModelKey, version: Int, reason: String, at time: Date) async throws -> Bool

    /// Every state set aside, oldest first.
    func setAsideStates() async throws -> [SetAsideState]

    /// Puts the set-aside state of `key` back where it was when nothing has been stored there
    /// since; returns whether it did (else it stays aside).
    func putBack(_ key: ViewModelKey) async throws -> Bool
}

/// The stored states of one path with one shape, in client sessions or in record spaces.
package struct StoredShapeGroup: Sendable, Hashable {
    /// Whether they are shared or user records (in record spaces) rather than view models.
    package var isRecord: Bool
    /// Their path (`counter`, `list/items/42`).
    package var path: String
    /// The shape they were written with; nil before shapes were kept.
    package var shape: String?
    /// How many there are.
    package var count: Int

    /// A group.
    package init(isRecord: Bool, path: String, shape: String?, count: Int) {
        self.isRecord = isRecord
        self.path = path
        self.shape = shape
        self.count = count
    }
}

/// A state set aside: the record as it was, why, and when.
package struct SetAsideState: Sendable, Hashable {
    /// The record, with its version, bytes and shape as they were stored.
    package var record: ViewModelRecord
    /// Whether it is a record (in a record space) rather than a view model's state.
    package var isRecord: Bool
    /// Why the deploy that set it aside could not read it.
    package var reason: String
    /// When.
    package var at: Date

    /// A set-aside state.
    package init(record: ViewModelRecord, isRecord: Bool, reason: String, at: Date) {
        self.record = record
        self.isRecord = isRecord
        self.reason = reason
        self.at = at
    }
}
