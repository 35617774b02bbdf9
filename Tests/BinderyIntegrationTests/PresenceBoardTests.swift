@testable import BinderyBinding
import BinderyRuntime
import Foundation
import Synchronization
import Testing

/// The presence board's expiry, on explicit times (no sleeping).
@Suite("Presence board: heartbeats and expiry")
struct PresenceBoardTests {
    static let teal = Collaborator(id: "t", name: "Teal Otter", colour: "#1a7f8e")
    static let amber = Collaborator(id: "a", name: "Amber Heron", colour: "#a65c00")

    @Test func aCollaboratorIsGoneTwelveSecondsAfterTheirLastWord() {
        let board = PresenceBoard()
        let frames = Mutex<[String]>([])
        let stop = board.watch("recipes/c41/edit", viewer: Self.amber.id) { bytes in
            frames.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
        }
        defer { stop() }
        let start = Date(timeIntervalSince1970: 1_000)
        board.arrive(Self.teal, at: "recipes/c41/edit", field: "name", now: start)
        board.arrive(Self.amber, at: "recipes/c41/edit", field: nil, now: start)
        #expect(board.others(at: "recipes/c41/edit", besides: Self.amber.id).map(\.collaborator) == [Self.teal])
        board.arrive(Self.teal, at: "recipes/c41/edit", field: "name", now: start + 8)  // a heartbeat
        board.sweep(now: start + 13)
        #expect(board.others(at: "recipes/c41/edit", besides: Self.amber.id).map(\.collaborator) == [Self.teal])
        #expect(board.others(at: "recipes/c41/edit", besides: Self.teal.id).isEmpty, "amber's last word was 13 s ago")
        board.sweep(now: start + 19)
        #expect(board.others(at: "recipes/c41/edit", besides: Self.amber.id).map(\.collaborator) == [Self.teal])
        board.sweep(now: start + 21)
        #expect(board.others(at: "recipes/c41/edit", besides: Self.amber.id).isEmpty)
        let sent = frames.withLock { $0 }
        #expect(sent.first?.contains(#""field":"name""#) == true)
        #expect(sent.last == #"{"others":[]}"#)
    }
}
