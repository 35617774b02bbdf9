import BinderyRuntime

/// The phases of one answered request, contiguous from the moment it was received: what
/// `Server-Timing` shows, what traces record and what the latency metrics are made of.
///
/// `parse` (read, routed, session found, body parsed) → `apply` (the view model's change, and
/// waiting for the session's previous commit) → `commit` (the store's transaction) → `push` (the
/// version written to the last watcher) → `render` (the answer made); `total` is received →
/// answer ready. A phase that does not apply is nil: a read has `total` only, a write that changed
/// nothing has no `commit`, a view model nobody watches no `push`.
struct RequestPhases {
    let parse: Duration?
    let apply: Duration?
    let commit: Duration?
    let push: Duration?
    let render: Duration?
    let total: Duration
    /// Received → its version committed, for a write that committed one.
    let writeToCommit: Duration?
    /// Received → its version written to the last watcher, for a write someone watched.
    let writeToPush: Duration?

    /// The phases of a request received at `received` and answered at `answered`, from the
    /// marks its timing got (none for a request answered on the fast path).
    init(marks: RequestTiming.Marks?, received: ContinuousClock.Instant, answered: ContinuousClock.Instant) {
        total = Self.span(received, answered)
        guard let marks, let parsed = marks.parsed else {
            (parse, apply, commit, push, render, writeToCommit, writeToPush) = (nil, nil, nil, nil, nil, nil, nil)
            return
        }
        parse = Self.span(received, parsed)
        guard let started = marks.commitStarted, let committed = marks.committed, committed >= parsed else {
            apply = Self.span(parsed, answered)
            (commit, push, render, writeToCommit, writeToPush) = (nil, nil, nil, nil, nil)
            return
        }
        apply = Self.span(parsed, started)
        commit = Self.span(started, committed)
        let pushed = marks.pushed.flatMap { $0 >= committed ? $0 : nil }
        push = pushed.map { Self.span(committed, $0) }
        render = Self.span(pushed ?? committed, answered)
        writeToCommit = Self.span(received, committed)
        writeToPush = pushed.map { Self.span(received, $0) }
    }

    /// `end - start`, never negative.
    private static func span(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Duration {
        end > start ? end - start : .zero
    }

    /// The `Server-Timing` field value (W3C Server Timing), durations in milliseconds:
    /// `parse;dur=0.041, apply;dur=0.210, commit;dur=1.302, push;dur=0.020, render;dur=0.015, total;dur=1.650`.
    var serverTiming: String {
        var value = ""
        for (name, duration) in [("parse", parse), ("apply", apply), ("commit", commit), ("push", push), ("render", render)] {
            guard let duration else { continue }
            value += name + ";dur=" + Self.milliseconds(duration) + ", "
        }
        return value + "total;dur=" + Self.milliseconds(total)
    }

    /// `duration` in milliseconds with three decimals (whole microseconds), without Foundation.
    static func milliseconds(_ duration: Duration) -> String {
        let microseconds = max(0, duration.nanoseconds / 1000)
        let fraction = String(microseconds % 1000)
        return String(microseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
