import BinderyRuntime
import BinderyStore
import Foundation
import Logging

/// Keeps presence on every node: applies a change to this node's ``PresenceBoard`` and, with a
/// shared store, announces it to the other nodes (PostgreSQL NOTIFY, never stored), which apply
/// it to theirs when it arrives (``receive(_:)``).
struct PresenceRelay: Sendable {
    /// This node's board.
    let board: PresenceBoard
    /// The shared store's feed, if nodes share one.
    let feed: (any ChangeFeed)?
    /// This node's id, to skip its own announcements.
    let node: String
    let logger: Logger

    /// One presence change as announced between nodes.
    struct Message: Codable {
        var node: String
        var path: String
        var collaborator: Collaborator
        /// The field they are in; ignored when they left.
        var field: String?
        var left: Bool
    }

    /// `collaborator` is on the screen at `path`, in `field` (a heartbeat repeats it).
    func arrive(_ collaborator: Collaborator, at path: String, field: String?) async {
        board.arrive(collaborator, at: path, field: field, now: Date())
        await announce(Message(node: node, path: path, collaborator: collaborator, field: field, left: false))
    }

    /// `collaborator` left the screen at `path`.
    func leave(_ collaborator: Collaborator, from path: String) async {
        board.leave(collaborator.id, from: path)
        await announce(Message(node: node, path: path, collaborator: collaborator, field: nil, left: true))
    }

    /// Applies another node's announcement; ignores this node's own and anything malformed.
    func receive(_ text: String) {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(text.utf8)), message.node != node else { return }
        if message.left {
            board.leave(message.collaborator.id, from: message.path)
        } else {
            board.arrive(message.collaborator, at: message.path, field: message.field, now: Date())
        }
    }

    /// Tells the other nodes; a failure only costs them this change until the next heartbeat.
    private func announce(_ message: Message) async {
        guard let feed, let data = try? JSONEncoder().encode(message) else { return }
        do {
            try await feed.announce(String(decoding: data, as: UTF8.self))
        } catch {
            logger.warning("Presence: announcing to the other nodes failed", metadata: ["error": "\(error)"])
        }
    }
}
