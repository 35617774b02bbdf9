// A tiny HTTP/1.1 client over a raw TCP socket, for tests that need control a real client
// hides: duplicate headers, chunked uploads, keep-alive, reading a stream chunk by chunk,
// dropping the connection. Self-contained (Foundation + Glibc only).
//
// Blocking socket calls run on the client's own serial DispatchQueue, never on Swift
// concurrency's cooperative threads (which the server under test needs). Every read has a
// timeout (SO_RCVTIMEO), so a test fails instead of hanging.
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One parsed HTTP response.
public struct RawHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// What can go wrong talking to the server.
public enum RawHTTPError: Error, Equatable {
    case connectFailed(Int32)
    case sendFailed(Int32)
    case timedOut
    case closedByPeer
    case malformed(String)
}

/// A single TCP connection to an HTTP server.
public final class RawHTTPClient: Sendable {
    private let socket: Int32
    private let queue = DispatchQueue(label: "RawHTTPClient")
    /// Bytes received but not yet consumed; only touched on `queue`.
    private let received = Mutex<[UInt8]>([])

    /// Connects to `host:port`; reads and writes time out after `timeout`.
    public init(port: Int, host: String = "127.0.0.1", timeout: Duration = .seconds(5)) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.connectFailed(errno) }
        let seconds = Int(timeout.components.seconds)
        let microseconds = Int(timeout.components.attoseconds / 1_000_000_000_000)
        var interval = timeval(tv_sec: seconds, tv_usec: microseconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw RawHTTPError.connectFailed(code)
        }
        socket = fd
    }

    deinit {
        Glibc.close(socket)
    }

    // MARK: - High level

    /// Sends a request and reads its response. A `Content-Length` is added for a body unless
    /// `headers` already frame it; `Host` is added unless given.
    public func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws -> RawHTTPResponse {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: localhost\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let framed = headers.contains { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if let body, !framed { head += "Content-Length: \(body.count)\r\n" }
        try await send(Array((head + "\r\n").utf8) + (body ?? []))
        return try await readResponse(forHead: method == "HEAD")
    }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) async throws {
        try await onQueue { try self.sendNow(bytes) }
    }

    /// Sends raw text.
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Reads one whole response (body by Content-Length, chunked, or until close).
    public func readResponse(forHead: Bool = false) async throws -> RawHTTPResponse {
        try await onQueue {
            var response = try self.readHeadNow()
            if forHead || response.status == 204 || response.status == 304 { return response }
            if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
                while let chunk = try self.readChunkNow() { response.body += chunk }
            } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
                response.body = try self.readExactlyNow(length)
            } else {
                response.body = try self.readToEndNow()
            }
            return response
        }
    }

    /// Reads only the status line and headers (for a streamed body read with `readChunk()`).
    public func readHead() async throws -> RawHTTPResponse {
        try await onQueue { try self.readHeadNow() }
    }

    /// The next chunk of a chunked body, or nil after the last (zero-size) chunk.
    public func readChunk() async throws -> [UInt8]? {
        try await onQueue { try self.readChunkNow() }
    }

    /// Waits until the server closes the connection (true) or the timeout passes (false).
    public func waitForClose() async throws -> Bool {
        try await onQueue {
            do {
                _ = try self.readToEndNow()
                return true
            } catch RawHTTPError.timedOut {
                return false
            }
        }
    }

    /// Closes the sending side and the socket; the server sees the client go away.
    public func close() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    // MARK: - Blocking parts, run on `queue`

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawHTTPError.sendFailed(errno) }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fillNow() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received.withLock { $0 += chunk[0..<count] }
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw RawHTTPError.timedOut }
        throw RawHTTPError.malformed("recv failed: \(errno)")
    }

    private func readLineNow() throws -> String {
        while true {
            let line = received.withLock { buffer -> String? in
                guard let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) else {
                    return nil
                }
                defer { buffer.removeFirst(end + 2) }
                return String(decoding: buffer[0..<end], as: UTF8.self)
            }
            if let line { return line }
            guard try fillNow() else { throw RawHTTPError.closedByPeer }
        }
    }

    private func readExactlyNow(_ count: Int) throws -> [UInt8] {
        while received.withLock({ $0.count }) < count {
            guard try fillNow() else { throw RawHTTPError.closedByPeer }
        }
        return received.withLock { buffer in
            defer { buffer.removeFirst(count) }
            return Array(buffer[0..<count])
        }
    }

    private func readToEndNow() throws -> [UInt8] {
        while try fillNow() {}
        return received.withLock { buffer in
            defer { buffer = [] }
            return buffer
        }
    }

    private func readHeadNow() throws -> RawHTTPResponse {
        let statusLine = try readLineNow()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw RawHTTPError.malformed("status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLineNow()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw RawHTTPError.malformed("header: \(line)") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((String(line[..<colon]), value))
        }
        return RawHTTPResponse(status: status, headers: headers, body: [])
    }

    private func readChunkNow() throws -> [UInt8]? {
        let sizeLine = try readLineNow()
        let sizeText = sizeLine.split(separator: ";").first.map(String.init) ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
            throw RawHTTPError.malformed("chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !readLineNow().isEmpty {}  // trailers, then the blank line
            return nil
        }
        let chunk = try readExactlyNow(size)
        guard try readLineNow().isEmpty else { throw RawHTTPError.malformed("chunk terminator") }
        return chunk
    }
}
