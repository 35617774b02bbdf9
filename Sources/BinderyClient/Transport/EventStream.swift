import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One connection to an event stream, as an `AsyncThrowingStream` of its events.
///
/// `URLSession.bytes(for:)` does not exist in swift-corelibs-foundation (Linux), so the bytes come
/// from a data task's delegate and go through ``ServerSentEventParser``. The stream ends when the
/// server ends it, throws the network's error or, for an answer other than 200, the problem the
/// server sent; ending its iteration cancels the request.
enum EventStream {
    /// Opens `target` on `transport`'s server, resuming after `lastEventID` when there is one.
    static func open(_ transport: Transport, _ target: String, lastEventID: String?) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        var request = transport.request("GET", target, headers: ["Accept": "text/event-stream"])
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self, throwing: (any Error).self)
        let receiver = Receiver(continuation)
        // Heartbeats come every 15 s: 45 s without a byte means the connection is gone.
        let session = URLSession(configuration: Transport.configuration(timeout: 45), delegate: receiver, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.finishTasksAndInvalidate()
        }
        task.resume()
        return events
    }

    /// The data task's delegate: parses what arrives and yields the events.
    private final class Receiver: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var parser = ServerSentEventParser()
            var status = 0
            var refusal = Data()
        }

        private let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
        private let state = Mutex(State())

        init(_ continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            state.withLock { $0.status = status }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let events = state.withLock { state -> [ServerSentEvent] in
                guard state.status == 200 else {
                    state.refusal.append(data)
                    return []
                }
                return state.parser.feed(data)
            }
            for event in events { continuation.yield(event) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (status, refusal) = state.withLock { ($0.status, $0.refusal) }
            if let error {
                continuation.finish(throwing: error)
            } else if status != 200 {
                let answer = Answer(status: status, headers: [:], body: refusal)
                continuation.finish(throwing: answer.problem)
            } else {
                continuation.finish()
            }
        }
    }
}
