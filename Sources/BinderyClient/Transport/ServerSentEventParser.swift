/// Turns the bytes of an event stream into events, however the bytes are cut into chunks.
///
/// Lines end with CR, LF or CRLF (a CRLF split between two chunks counts once); `:` starts a
/// comment (Bindery's heartbeats); an empty line dispatches the event, if it had data. Field
/// values lose one leading space. `retry:` is ignored: the client has its own back-off.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var type: String?
    private var id: String?
    private var data: [String] = []

    /// The events completed by `bytes`, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case 10 where afterCarriageReturn:
                afterCarriageReturn = false
            case 10, 13:
                afterCarriageReturn = byte == 13
                if let event = endLine() { events.append(event) }
            default:
                afterCarriageReturn = false
                line.append(byte)
            }
        }
        return events
    }

    /// Handles the line just ended; answers the event an empty line completes.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            defer { type = nil; id = nil; data = [] }
            return data.isEmpty ? nil : ServerSentEvent(type: type, id: id, data: data.joined(separator: "\n"))
        }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let name = String(decoding: line[..<colon], as: UTF8.self)
        var value = colon < line.endIndex ? line[(colon + 1)...] : []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch name {
        case "event": type = text
        case "data": data.append(text)
        case "id" where !text.contains("\0"): id = text
        default: break
        }
        return nil
    }
}
