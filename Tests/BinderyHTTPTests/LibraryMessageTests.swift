@testable import BinderyHTTP
import Logging
import Testing

/// libmicrohttpd's log messages, sorted by meaning: a client that left is normal (debug), a
/// malformed request it answered itself is the client's fault (info), the rest is a warning.
struct LibraryMessageTests {
    @Test(arguments: [
        "Closing connection (application error generating response).",
        "Socket has been disconnected when reading request.",
        "Connection socket is closed when reading request due to the error: Connection reset by peer",
        "Connection was closed by remote side with incomplete request.",
        "Failed to send the chunked response body for the request for `/api/events'. Error: The connection was forcibly closed by remote peer",
    ])
    func aClientThatLeftIsDebug(_ message: String) {
        #expect(LibraryMessage.level(of: message) == .debug)
    }

    @Test(arguments: [
        "Error processing request (HTTP response code is 431 ('Request Header Fields Too Large')). Closing connection.",
        "Failed to parse `Content-Length' header. Closing connection.",
    ])
    func aMalformedRequestIsInfo(_ message: String) {
        #expect(LibraryMessage.level(of: message) == .info)
    }

    @Test(arguments: [
        "Server reached connection limit. Closing inbound connection.",
        "MHD_OPTION_EXTERNAL_LOGGER is not the first option specified for the daemon. Some messages may be printed by the standard MHD logger.",
        "Closing connection (out of memory).",
    ])
    func anythingElseIsAWarning(_ message: String) {
        #expect(LibraryMessage.level(of: message) == .warning)
    }
}
