@testable import BinderyRuntime
import BinderyUpstream
import Testing

/// Server-ordered operational transformation, simulated: 2–10 clients type markers into one text
/// and delete runs of them, over a network with random delays that reorders answers and event
/// streams against each other and repeats some requests. The server is Bindery's own transform
/// (``RecordEditLog`` and ``TextOperation``); the clients run the browser client's algorithm.
///
/// Time budget: under 10 s in a debug build (four runs of 10,000 edits each).
@Suite("Collaborative text: concurrent edits converge")
struct TextConvergenceTests {
    @Test(arguments: [(2, UInt64(1)), (3, 2), (5, 3), (10, 4)])
    func tenThousandRandomEditsConvergeAndKeepEveryMarkerWhole(clients: Int, seed: UInt64) throws {
        var simulation = Simulation(clients: clients, seed: seed)
        try simulation.run(edits: 10_000)
        let server = simulation.server.text
        for client in simulation.clients {
            #expect(client.isSettled)
            #expect(client.text == server, "\(client.name) differs from the server")
        }
        let markers = try Simulation.markers(in: server)
        #expect(Set(markers).count == markers.count, "a marker is present twice")
        #expect(Set(markers) == simulation.inserted.subtracting(simulation.deleted))
        #expect(simulation.staleBases > 1_000, "too few edits were made on an older revision to test anything")
        #expect(simulation.repeats > 50)
        #expect(simulation.tooOld == 0)
    }
}

/// A server holding one text and its edit log.
private struct SimulatedServer {
    var text = ""
    var log = RecordEditLog(version: 0, limit: 64)

    enum Answer {
        case applied(TextEdits)
        case tooOld
    }

    /// What `POST …/ops` does: refuse a base older than the log, answer a repeated id again,
    /// else transform, apply and log. Also answers the edit it applied, if it applied one.
    mutating func receive(_ edit: SimulatedTextClient.Inflight) throws -> (Answer, applied: TextEdit?) {
        guard let since = log.edits(of: "t", after: edit.base) else { return (.tooOld, nil) }
        if let first = log.edit(of: "t", id: edit.id) {
            let upToFirst = since.edits.filter { $0.revision <= first.revision }
            return (.applied(TextEdits(from: edit.base, revision: first.revision, edits: upToFirst)), nil)
        }
        let rebased = try log.rebase(edit.operation, of: "t", on: edit.base)
        text = try rebased.apply(to: text)
        let applied = TextEdit(id: edit.id, revision: log.latest + 1, operation: rebased)
        log.record(version: applied.revision, edits: ["t": applied])
        return (.applied(TextEdits(from: edit.base, revision: applied.revision, edits: since.edits + [applied])), applied)
    }
}

/// The clients, the server and the messages between them on a simulated clock.
private struct Simulation {
    enum Message {
        case request(client: Int, SimulatedTextClient.Inflight)
        case answer(client: Int, SimulatedServer.Answer)
        case event(client: Int, TextEdits)
        case type(client: Int)
    }

    var clients: [SimulatedTextClient]
    var server = SimulatedServer()
    var inserted: Set<String> = []
    var deleted: Set<String> = []
    var staleBases = 0
    var repeats = 0
    var tooOld = 0
    private var random: SplitMix64
    private var queue: [(time: Int, order: Int, message: Message)] = []
    private var now = 0
    private var order = 0
    /// When each client's event stream delivers its last event: streams keep their order.
    private var streamClear: [Int]
    private var typed = 0

    init(clients count: Int, seed: UInt64) {
        clients = (0..<count).map { SimulatedTextClient(name: "c\($0)", text: "", revision: 0) }
        random = SplitMix64(seed: seed)
        streamClear = Array(repeating: 0, count: count)
    }

    mutating func run(edits: Int) throws {
        for client in clients.indices { schedule(.type(client: client), after: delay(1...100)) }
        while let next = queue.first {
            queue.removeFirst()
            now = next.time
            switch next.message {
            case .type(let client):
                guard typed < edits else { continue }
                typed += 1
                try type(client)
                schedule(.type(client: client), after: delay(1...100))
            case .request(let client, let edit):
                if edit.base < server.log.latest { staleBases += 1 }
                let (answer, applied) = try server.receive(edit)
                if let applied {
                    for other in clients.indices {
                        stream(TextEdits(from: applied.revision - 1, revision: applied.revision, edits: [applied]), to: other)
                    }
                }
                schedule(.answer(client: client, answer), after: delay(1...60))
            case .answer(let client, .applied(let edits)):
                guard try clients[client].receive(edits) else { Issue.record("an answer starts after its client"); return }
                send(client)
            case .answer(let client, .tooOld):
                // The client catches up (`GET …/inputs/{name}?after=`) and sends its edit again.
                tooOld += 1
                guard let missed = server.log.edits(of: "t", after: clients[client].revision),
                    try clients[client].receive(missed), let again = clients[client].resend()
                else {
                    Issue.record("\(clients[client].name) could not catch up")
                    return
                }
                schedule(.request(client: client, again), after: delay(1...60))
            case .event(let client, let edits):
                guard try clients[client].receive(edits) else { Issue.record("the event stream skipped a revision"); return }
                send(client)
            }
            if queue.isEmpty { for client in clients.indices { send(client) } }
        }
    }

    /// The client types: inserts a new marker between two markers, or deletes a run of 1–3.
    private mutating func type(_ index: Int) throws {
        let text = clients[index].text
        let bounds = Self.boundaries(of: text)
        let markerCount = bounds.count - 1
        if markerCount > 0, random.nextUnit() < (markerCount > 60 ? 0.6 : 0.3) {
            let first = Int(random.next() % UInt64(markerCount))
            let count = min(markerCount - first, 1 + Int(random.next() % 3))
            let scalars = Array(text.unicodeScalars)
            let removed = TextOperation.string(scalars[bounds[first]..<bounds[first + count]])
            deleted.formUnion(try Self.markers(in: removed))
            try clients[index].edit(TextOperation([.delete(removed, at: bounds[first])]))
        } else {
            let marker = "\(index).\(typed)"
            inserted.insert(marker)
            // Some markers start with an emoji: one scalar, two UTF-16 units.
            let opening = random.nextUnit() < 0.2 ? "🎞" : "«"
            let at = bounds[Int(random.next() % UInt64(bounds.count))]
            try clients[index].edit(TextOperation([.insert("\(opening)\(marker)»", at: at)]))
        }
        send(index)
    }

    private mutating func send(_ client: Int) {
        guard let edit = clients[client].nextToSend() else { return }
        schedule(.request(client: client, edit), after: delay(1...60))
        if random.nextUnit() < 0.02 {
            repeats += 1
            schedule(.request(client: client, edit), after: delay(1...120))
        }
    }

    private mutating func stream(_ edits: TextEdits, to client: Int) {
        let at = max(streamClear[client], now + delay(1...60))
        streamClear[client] = at
        queue.insert((at, nextOrder(), .event(client: client, edits)), at: insertionIndex(at))
    }

    private mutating func schedule(_ message: Message, after delay: Int) {
        queue.insert((now + delay, nextOrder(), message), at: insertionIndex(now + delay))
    }

    private func insertionIndex(_ time: Int) -> Int {
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func nextOrder() -> Int {
        order += 1
        return order
    }

    private mutating func delay(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    /// The scalar offsets where markers start, and the text's end.
    static func boundaries(of text: String) -> [Int] {
        var offsets: [Int] = []
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar == "«" || scalar == "🎞" {
            offsets.append(offset)
        }
        return offsets + [text.unicodeScalars.count]
    }

    /// The markers of `text`; throws when one is not whole.
    static func markers(in text: String) throws -> [String] {
        var markers: [String] = []
        var current: String?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "«", "🎞":
                guard current == nil else { throw SplitMarker(text: text) }
                current = ""
            case "»":
                guard let marker = current else { throw SplitMarker(text: text) }
                markers.append(marker)
                current = nil
            default:
                guard current != nil else { throw SplitMarker(text: text) }
                current?.unicodeScalars.append(scalar)
            }
        }
        guard current == nil else { throw SplitMarker(text: text) }
        return markers
    }

    struct SplitMarker: Error {
        let text: String
    }
}
