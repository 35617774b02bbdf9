// The one Swift file that talks to libmicrohttpd and the C shim. Everything else in the module
// sees `MHDConnection` and `MHDDaemon`, never a C type.
import CBinderyShim
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libmicrohttpd connection handle.
///
/// `@unchecked Sendable`: the pointer crosses threads only to be resumed, and
/// `MHD_resume_connection` is thread-safe; callers hold it only while the connection is
/// suspended, and their own lock (RequestContext, ResponseStream) makes the resume happen once.
struct MHDConnection: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

    /// Suspends the connection; only from the access handler or a content reader.
    func suspend() {
        MHD_suspend_connection(raw)
    }

    /// Resumes the connection; thread-safe, exactly once per suspend.
    func resume() {
        MHD_resume_connection(raw)
    }

    /// Identifies the connection while it is open (its handle's address).
    var key: Int { Int(bitPattern: raw) }

    /// The connection's socket descriptor, or -1.
    var socket: Int32 { bindery_connection_socket(raw) }

    /// The request's header fields, how many `Content-Length` fields were sent, and the
    /// `Transfer-Encoding` values exactly as libmicrohttpd holds them (`HTTPField` trims
    /// whitespace, which libmicrohttpd does not when it decides on chunked framing).
    func requestHeaders() -> RequestHead {
        var head = RequestHead()
        _ = withUnsafeMutablePointer(to: &head) { pointer in
            MHD_get_connection_values(
                raw, .HEADER_KIND,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let head = context.assumingMemoryBound(to: RequestHead.self)
                    guard let fieldName = KnownFieldNames.name(cString: key) ?? HTTPField.Name(String(cString: key)) else {
                        return .YES
                    }
                    let text = value.map { String(cString: $0) } ?? ""
                    if fieldName == .contentLength { head.pointee.contentLengthCount += 1 }
                    if fieldName == .transferEncoding { head.pointee.transferEncodings.append(text) }
                    if fieldName == KnownFieldNames.host { head.pointee.hostCount += 1 }
                    head.pointee.fields.append(HTTPField(name: fieldName, value: text))
                    return .YES
                }, pointer)
        }
        return head
    }

    /// The raw (still percent-encoded) query arguments, in order.
    func queryArguments() -> [(String, String)] {
        var arguments: [(String, String)] = []
        _ = withUnsafeMutablePointer(to: &arguments) { pointer in
            MHD_get_connection_values(
                raw, .GET_ARGUMENT_KIND,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let arguments = context.assumingMemoryBound(to: [(String, String)].self)
                    arguments.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                    return .YES
                }, pointer)
        }
        return arguments
    }

    /// The client's numeric IP address.
    func clientAddress() -> String? {
        // On the stack: this runs for every request.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard let base = buffer.baseAddress, bindery_client_address(raw, base, buffer.count) == 0 else { return nil }
            return String(cString: base)
        }
    }

    /// Queues `response`; a stream body is read through `streamReader`. Returns false when
    /// libmicrohttpd refused (the caller then closes the connection).
    func queue(_ response: Response) -> Bool {
        let handle: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            handle = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY
                )
            }
        case .stream(let stream):
            guard stream.attach() else { return false }
            let box = StreamBox(stream: stream, connection: self)
            let context = Unmanaged.passRetained(box).toOpaque()
            handle = MHD_create_response_from_callback(UInt64.max, 4096, streamReader, context, streamFree)
            if handle == nil {
                Unmanaged<StreamBox>.fromOpaque(context).release()
                stream.terminate()
            }
        }
        guard let handle else { return false }
        defer { MHD_destroy_response(handle) }
        for field in response.headers
        where field.name != .contentLength && field.name != .transferEncoding {
            _ = MHD_add_response_header(handle, field.name.rawName, field.value)
        }
        return MHD_queue_response(raw, UInt32(response.status.code), handle) == .YES
    }
}

/// What a stream response's C callbacks receive: the stream and the connection it is sent on.
private final class StreamBox {
    let stream: ResponseStream
    let connection: MHDConnection

    init(stream: ResponseStream, connection: MHDConnection) {
        self.stream = stream
        self.connection = connection
    }
}

/// Content reader: copies queued stream bytes, or suspends the connection when there are none.
private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return -2 }
    let box = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue()
    switch box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max), suspending: box.connection) {
    case .bytes(let count): return count
    case .suspended: return 0
    case .endOfStream: return -1
    case .clientLeft: return -2
    }
}

/// Free callback of a stream response: the body is over (sent, client gone or shutdown).
private let streamFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(context).takeRetainedValue()
    box.stream.terminate()
}

/// Access handler: translates libmicrohttpd's calls into `RequestDispatcher` steps.
private let accessHandler: MHD_AccessHandlerCallback = {
    serverContext, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let serverContext, let connection, let requestContext, let uploadDataSize else { return .NO }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(serverContext).takeUnretainedValue()
    let mhdConnection = MHDConnection(raw: connection)

    guard let existing = requestContext.pointee else {
        dispatcher.headDeadlines.headArrived(mhdConnection.key)
        let context = RequestContext(
            method: method.map { String(cString: $0) } ?? "",
            rawURL: url.map { String(cString: $0) } ?? "",
            maxBodyBytes: dispatcher.configuration.maxBodyBytes
        )
        requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        guard let early = dispatcher.firstCall(context, connection: mhdConnection, isHTTP11: isHTTP11) else {
            return .YES
        }
        return queue(early, for: context, on: mhdConnection)
    }
    let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        context.appendBody(UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee))
        uploadDataSize.pointee = 0
        return .YES
    }
    guard let response = dispatcher.finalCall(context, connection: mhdConnection) else { return .YES }
    return queue(response, for: context, on: mhdConnection)
}

private func queue(_ response: Response, for context: RequestContext, on connection: MHDConnection) -> MHD_Result {
    context.markQueued(response)
    return connection.queue(response) ? .YES : .NO
}

/// NOTIFY_COMPLETED: logs the request, releases its context and starts the wait for the next
/// request head.
private let completedHandler: MHD_RequestCompletedCallback = {
    serverContext, connection, requestContext, termination in
    guard let serverContext, let requestContext, let pointer = requestContext.pointee else { return }
    requestContext.pointee = nil
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(serverContext).takeUnretainedValue()
    if let connection {
        dispatcher.headDeadlines.requestEnded(MHDConnection(raw: connection).key, now: .now)
    }
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
    dispatcher.completed(context, normally: termination == .REQUEST_TERMINATED_COMPLETED_OK)
}

/// NOTIFY_CONNECTION: counts open connections over all workers and tracks each one's request
/// head deadline. libmicrohttpd reports a close before it closes the socket.
private let connectionHandler: MHD_NotifyConnectionCallback = { serverContext, connection, _, event in
    guard let serverContext else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(serverContext).takeUnretainedValue()
    let opened = event == .CONNECTION_NOTIFY_STARTED
    dispatcher.connectionChanged(opened: opened)
    guard let connection else { return }
    let handle = MHDConnection(raw: connection)
    if opened {
        dispatcher.headDeadlines.opened(handle.key, socket: handle.socket, address: handle.clientAddress(), now: .now)
    } else {
        dispatcher.headDeadlines.closed(handle.key)
    }
}

/// libmicrohttpd's error log, already formatted by the shim, at the level its meaning deserves.
private let logHandler: bindery_log_fn = { serverContext, message in
    guard let serverContext, let message else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(serverContext).takeUnretainedValue()
    let text = String(cString: message)
    dispatcher.libraryLog(text, level: LibraryMessage.level(of: text))
}

/// One running libmicrohttpd daemon (one epoll thread).
///
/// `@unchecked Sendable`: it owns C memory that only `stop()` frees; `HTTPServer` calls
/// `stop()` once, after its own state says the daemon is no longer in use.
final class MHDDaemon: @unchecked Sendable {
    private let raw: OpaquePointer
    private let options: UnsafeMutablePointer<bindery_daemon_options>
    private let host: UnsafeMutablePointer<CChar>
    private let dispatcher: Unmanaged<RequestDispatcher>
    private var listenSocket: Int32 = -1

    /// Starts a daemon that sends every request to `dispatcher` (retained until `stop()`).
    init(
        host hostName: String, port: Int, reuseAddress: Bool,
        connectionLimit: Int, perIPConnectionLimit: Int,
        dispatcher: RequestDispatcher
    ) throws(HTTPServerError) {
        let configuration = dispatcher.configuration
        guard let host = strdup(hostName) else { throw .startFailed(host: hostName, port: port, code: -1) }
        // The daemon's threads own a reference to the dispatcher until `stop()`; a server
        // released without shutdown() leaks it rather than leaving the threads a dangling pointer.
        let retained = Unmanaged.passRetained(dispatcher)
        let context = retained.toOpaque()
        let options = UnsafeMutablePointer<bindery_daemon_options>.allocate(capacity: 1)
        options.initialize(
            to: bindery_daemon_options(
                host: UnsafePointer(host),
                port: UInt16(port),
                reuse_address: reuseAddress ? 1 : 0,
                connection_limit: UInt32(clamping: connectionLimit),
                per_ip_connection_limit: UInt32(clamping: perIPConnectionLimit),
                connection_timeout_seconds: UInt32(clamping: configuration.connectionTimeoutSeconds),
                connection_memory_limit: configuration.connectionMemoryLimit,
                access_handler: accessHandler,
                access_handler_context: context,
                completed_handler: completedHandler,
                completed_handler_context: context,
                connection_handler: connectionHandler,
                connection_handler_context: context,
                log: logHandler,
                log_context: context
            ))
        var code: Int32 = 0
        guard let raw = bindery_start_daemon(options, &code) else {
            options.deallocate()
            free(host)
            retained.release()
            throw code == EINVAL
                ? .invalidHost(hostName)
                : .startFailed(host: hostName, port: port, code: Int(code))
        }
        self.raw = raw
        self.options = options
        self.host = host
        self.dispatcher = retained
    }

    /// The bound port.
    var port: Int {
        Int(bindery_daemon_port(raw))
    }

    /// Stops accepting new connections; existing ones go on.
    func quiesce() {
        listenSocket = MHD_quiesce_daemon(raw)
    }

    /// Stops the daemon (no connection may be suspended) and frees its memory.
    func stop() {
        MHD_stop_daemon(raw)
        if listenSocket >= 0 { close(listenSocket) }
        options.deallocate()
        free(host)
        dispatcher.release()
    }
}
