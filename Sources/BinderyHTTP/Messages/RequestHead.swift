import HTTPTypes

/// What the request head says, as the dispatcher checks it before reading a body.
struct RequestHead {
    /// The header fields.
    var fields = HTTPFields()
    /// How many `Content-Length` fields were sent.
    var contentLengthCount = 0
    /// The raw `Transfer-Encoding` values, untrimmed.
    var transferEncodings: [String] = []
    /// How many `Host` fields were sent.
    var hostCount = 0
}
