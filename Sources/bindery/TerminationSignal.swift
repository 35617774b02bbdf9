import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM without blocking a thread.
enum TerminationSignal {
    /// Suspends until the process receives SIGINT or SIGTERM and returns its name.
    static func next() async -> String {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "bindery.signals")
            let resumed = ResumeOnce(continuation)
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { resumed.resume(name) }
                source.resume()
                resumed.keep(source)
            }
        }
    }
}

/// Resumes a continuation at most once and keeps the signal sources alive until then.
private final class ResumeOnce: @unchecked Sendable {
    // Touched only on the serial signal queue (and once before any handler can run).
    private var continuation: CheckedContinuation<String, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<String, Never>) {
        self.continuation = continuation
    }

    func keep(_ source: any DispatchSourceSignal) {
        sources.append(source)
    }

    func resume(_ name: String) {
        continuation?.resume(returning: name)
        continuation = nil
    }
}
