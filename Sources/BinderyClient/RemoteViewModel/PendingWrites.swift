import Foundation

/// The inputs written but not yet answered, coalesced: one PATCH in flight, and everything
/// written meanwhile merged into the next one (a later value of an input replaces an earlier).
struct PendingWrites {
    /// One PATCH: its inputs, the version the client showed when they were written (`If-Match`),
    /// its `Idempotency-Key`, and the number of the last write it carries.
    struct Batch {
        var values: [String: JSONValue]
        var ifMatch: Int?
        var key: String
        var last: Int
    }

    private var queued: [String: JSONValue] = [:]
    private var queuedBase: Int?
    private(set) var inFlight: Batch?
    /// The number of the last write taken.
    private(set) var written = 0

    /// Takes a write of `values` made while the client showed version `shown`; answers its number.
    mutating func add(_ values: [String: JSONValue], shown: Int?) -> Int {
        if queued.isEmpty { queuedBase = shown }
        queued.merge(values) { _, new in new }
        written += 1
        return written
    }

    /// The next PATCH to send, now in flight; nil when one is in flight already or nothing waits.
    mutating func next() -> Batch? {
        guard inFlight == nil, !queued.isEmpty else { return nil }
        inFlight = Batch(values: queued, ifMatch: queuedBase, key: UUID().uuidString, last: written)
        queued = [:]
        queuedBase = nil
        return inFlight
    }

    /// The PATCH in flight was answered (the server is at `version` if it took it): what waits
    /// next was written on top of that version, not a conflict with it.
    mutating func answered(version: Int?) {
        inFlight = nil
        if let version, let base = queuedBase { queuedBase = max(base, version) }
    }

    /// Whether nothing is waiting or in flight.
    var isEmpty: Bool { inFlight == nil && queued.isEmpty }

    /// The values the client shows instead of the server's until they are answered.
    var shown: [String: JSONValue] {
        (inFlight?.values ?? [:]).merging(queued) { _, new in new }
    }
}
