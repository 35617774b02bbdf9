/// One event of a Server-Sent Events stream (the WHATWG `EventSource` processing model).
struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; nil for an unnamed event (a whole snapshot on Bindery's streams).
    var type: String?
    /// The `id:` field of this event, if it had one (a version on Bindery's streams).
    var id: String?
    /// The `data:` lines, joined by line feeds.
    var data: String
}
