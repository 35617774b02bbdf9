import Logging

/// The level of a libmicrohttpd log message. libmicrohttpd logs everything it finds wrong alike;
/// much of it is a client's doing, not the server's: a client that left (a tab closed, an event
/// stream dropped, a reset) is normal, debug; a malformed request it answered itself (400, 413,
/// 431) is the client's fault, info; anything else (limits, resources, threads) is a warning.
enum LibraryMessage {
    /// Beginnings of libmicrohttpd 0.9.75's messages about a client that closed or reset its
    /// connection. The first is how it reports a stream that `streamReader` ended because its
    /// client left, the reader's one MHD_CONTENT_READER_END_WITH_ERROR (the other, for a call
    /// without its context, never happens).
    static let clientLeft = [
        "Closing connection (application error generating response)",
        "Socket has been disconnected when reading request",
        "Connection socket is closed when reading request",
        "Connection was closed by remote side with incomplete request",
        "Failed to send ",
    ]

    /// Beginnings of its messages about a malformed request, answered by libmicrohttpd itself.
    static let clientError = [
        "Error processing request (HTTP response code is",
        "Not enough memory in pool to allocate header record",
        "Received HTTP/1.1 request without `Host' header",
        "Too large value of 'Content-Length' header",
        "Failed to parse `Content-Length' header",
    ]

    /// The level `message` is logged at.
    static func level(of message: String) -> Logger.Level {
        if clientLeft.contains(where: { message.hasPrefix($0) }) { return .debug }
        if clientError.contains(where: { message.hasPrefix($0) }) { return .info }
        return .warning
    }
}
