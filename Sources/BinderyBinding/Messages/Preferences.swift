import BinderyHTTP
import Foundation

/// The `Prefer` request header (RFC 7240) as far as Bindery honours it.
struct Preferences {
    /// How long the client is willing to wait, from `wait=N` (seconds), capped at `limit`.
    let wait: Duration?

    /// Reads the header of `request`. A value percent-encoded whole (`wait%3D5`, as Swift's
    /// OpenAPI runtime sends it) is read decoded: no preference Bindery honours has a `%`.
    init(_ request: Request, limit: Duration = .seconds(60)) {
        var wait: Duration?
        for raw in request.headers[values: .init("Prefer")!] {
            let value = raw.contains("%") ? raw.removingPercentEncoding ?? raw : raw
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
