import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One blocking loopback TCP connection with a receive timeout, driven from async tests.
final class TestConnection: @unchecked Sendable {
    // Used by one test task at a time; the buffer is only touched inside `perform`.
    private let socket: Int32
    private var buffer: [UInt8] = []
    private static let queue = DispatchQueue(label: "bindery.test-connection", attributes: .concurrent)

    private init(socket: Int32) {
        self.socket = socket
    }

    /// Connects to 127.0.0.1:`port` with a 10 s receive timeout.
    static func connect(port: Int) async throws -> TestConnection {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw TestFailure("connect() to port \(port) failed")
        }
        return TestConnection(socket: fd)
    }

    /// Writes all bytes.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestFailure("send() failed") }
            offset += written
        }
    }

    /// Reads a full response: head, then a body by Content-Length, chunks, or until close.
    func readResponse() async throws -> TestResponse {
        let head = try await readHead()
        if head.status == 304 || head.status == 204 || (100..<200).contains(head.status) {
            return TestResponse(status: head.status, headers: head.headers, body: [])
        }
        let body: [UInt8]
        if let length = head.header("content-length").flatMap(Int.init) {
            body = try await read(count: length)
        } else if head.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            var collected: [UInt8] = []
            while let chunk = try await readChunk() { collected += chunk }
            body = collected
        } else {
            body = try await readToEnd()
        }
        return TestResponse(status: head.status, headers: head.headers, body: body)
    }

    /// Reads the status line and headers.
    func readHead() async throws -> TestResponse {
        let text = try await readUntil(Array("\r\n\r\n".utf8))
        let lines = String(decoding: text, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw TestFailure("bad status line: \(lines.first ?? "")")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return TestResponse(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: [])
    }

    /// Reads one chunk of a chunked body; nil at the last chunk.
    func readChunk() async throws -> [UInt8]? {
        let sizeLine = String(decoding: try await readUntil([13, 10]), as: UTF8.self)
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw TestFailure("bad chunk size '\(sizeLine)'")
        }
        if size == 0 {
            _ = try? await readUntil([13, 10])
            return nil
        }
        let chunk = try await read(count: size)
        _ = try await read(count: 2)
        return chunk
    }

    /// Closes the socket.
    func close() {
        Glibc.close(socket)
    }

    private func readUntil(_ delimiter: [UInt8]) async throws -> [UInt8] {
        try await perform { connection in
            while true {
                if let range = connection.find(delimiter) {
                    let result = Array(connection.buffer[..<range])
                    connection.buffer.removeFirst(range + delimiter.count)
                    return result
                }
                guard try connection.fill() else { throw TestFailure("connection closed before delimiter") }
            }
        }
    }

    private func read(count: Int) async throws -> [UInt8] {
        try await perform { connection in
            while connection.buffer.count < count {
                guard try connection.fill() else { throw TestFailure("connection closed early") }
            }
            let result = Array(connection.buffer.prefix(count))
            connection.buffer.removeFirst(count)
            return result
        }
    }

    private func readToEnd() async throws -> [UInt8] {
        try await perform { connection in
            while try connection.fill() {}
            defer { connection.buffer.removeAll() }
            return connection.buffer
        }
    }

    private func perform<T: Sendable>(_ work: @escaping @Sendable (TestConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { continuation.resume(with: Result { try work(self) }) }
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestFailure("recv() failed or timed out (errno \(errno))") }
        buffer += chunk.prefix(count)
        return count > 0
    }

    private func find(_ delimiter: [UInt8]) -> Int? {
        guard buffer.count >= delimiter.count else { return nil }
        for start in 0...(buffer.count - delimiter.count) where buffer[start] == delimiter[0] {
            if Array(buffer[start..<(start + delimiter.count)]) == delimiter { return start }
        }
        return nil
    }
}
