import BinderyRuntime
import BinderyTestSupport
import Foundation

/// Reads Server-Sent Events from an open response, one event at a time.
final class EventStreamReader: @unchecked Sendable {
    // `pending` is used by one test task at a time.
    /// One event: its `id:`, its `event:` type (nil for a snapshot) and the `data:` decoded as
    /// JSON (`data` when it is an object, `value` whatever it is), with its size in bytes.
    struct Event {
        let id: Int?
        let data: [String: JSONValue]
        var type: String? = nil
        var value: JSONValue = .null
        var size = 0

        /// `outputs.<name>` of the snapshot the event carries.
        func output(_ name: String) -> JSONValue? { data["outputs"]?.objectValue?[name] }
        /// `inputs.<name>` of the snapshot the event carries.
        func input(_ name: String) -> JSONValue? { data["inputs"]?.objectValue?[name] }
    }

    let head: RawHTTPResponse
    private let connection: RawHTTPClient
    private var pending = ""

    init(connection: RawHTTPClient, head: RawHTTPResponse) {
        self.connection = connection
        self.head = head
    }

    /// The next event with data (comments and `retry:` are skipped); nil when the stream ended.
    func next() async throws -> Event? {
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.lowerBound])
                pending.removeSubrange(..<range.upperBound)
                if let event = Self.parse(block) { return event }
                continue
            }
            guard let chunk = try await connection.readChunk() else { return nil }
            pending += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Reads events until one satisfies `condition`.
    func next(where condition: (Event) -> Bool) async throws -> Event {
        while let event = try await next() {
            if condition(event) { return event }
        }
        throw TestFailure("the stream ended before the expected event")
    }

    /// Closes the connection (the client goes away).
    func close() { connection.close() }

    private static func parse(_ block: String) -> Event? {
        var id: Int?
        var type: String?
        var data = ""
        for line in block.split(separator: "\n") {
            if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { type = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        guard !data.isEmpty, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(data.utf8)) else { return nil }
        return Event(id: id, data: value.objectValue ?? [:], type: type, value: value, size: data.utf8.count)
    }
}
