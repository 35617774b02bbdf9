import BinderyHTTP
import Foundation

/// The `Prefer` request header (RFC 7240) as far as Bindery honours it.
struct Preferences {
    /// How long the client is willing to wait, from `wait=N` (seconds), capped at `limit`.
    let wait: Duration?

    /// Reads the header of `request`.
    init(_ request: Request, limit: Duration = .seconds(60)) {
        var wait: Duration?
        for value in request.headers[values: .init("Prefer")!] {
            for token in value.split(separator: ",") {
                let parts = token.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, parts[0].lowercased() == "wait", let seconds = Double(parts[1]),
                    seconds.isFinite, seconds >= 0
                else { continue }
                // Clamp before converting: a huge finite number would overflow Int64.
                let capped = min(seconds, Double(limit.components.seconds))
                wait = min(.milliseconds(Int64(capped * 1000)), limit)
            }
        }
        self.wait = wait
    }
}
