import Foundation

/// The open-file budget: every connection is a descriptor, and Debian's default soft limit
/// (1,024) would cap the server below its connection limit. At start the soft limit is raised
/// to the hard one, and the connection limit is lowered to what the budget allows if need be.
enum FileDescriptorBudget {
    /// Descriptors kept for everything but client connections: the store, logs, listeners.
    static let reserve = 256

    /// Raises the soft limit to the hard limit; returns the soft limit now in force.
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The most connections `descriptors` allow, given that each worker may go an eighth over
    /// the total to answer 503s (see `HTTPServer`).
    static func connections(allowedBy descriptors: Int, workers: Int) -> Int {
        let available = max(0, descriptors - reserve)
        // total + workers × max(16, total / 8) ≤ available
        return max(16, Int(Double(available) / (1 + Double(workers) / 8)))
    }
}
