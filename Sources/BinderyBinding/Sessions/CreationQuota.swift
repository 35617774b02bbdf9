import Synchronization

/// How fast each client address may create sessions: a token bucket per address, so one client
/// cannot fill the server with sessions (and push everyone else's out) in seconds.
///
/// IPv6 addresses share a bucket per /64, the block one host usually gets. The table forgets
/// addresses whose bucket is full again once it grows large, so its memory stays bounded.
final class CreationQuota: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let burst: Double
    private let perSecond: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    private static let pruneAbove = 4096

    /// A quota of `burst` creations at once, refilled at `perSecond`.
    init(burst: Int, perSecond: Double) {
        self.burst = Double(max(1, burst))
        self.perSecond = max(0.001, perSecond)
    }

    /// Takes one creation from `address`'s bucket at `now`: nil when admitted, else how long
    /// until one is available.
    func admit(_ address: String, at now: ContinuousClock.Instant) -> Duration? {
        let key = Self.key(for: address)
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + perSecond * (now - bucket.updated).timeInterval)
            bucket.updated = now
            defer {
                buckets[key] = bucket
                if buckets.count > Self.pruneAbove { prune(&buckets, at: now) }
            }
            guard bucket.tokens >= 1 else { return .seconds((1 - bucket.tokens) / perSecond) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// The bucket an address counts against: itself, or its /64 for IPv6.
    static func key(for address: String) -> String {
        guard address.contains(":") else { return address }
        let groups = address.split(separator: ":", omittingEmptySubsequences: false)
        // A compressed address ("2001:db8::1") may have fewer than four groups before "::".
        return groups.prefix(4).joined(separator: ":")
    }

    private func prune(_ buckets: inout [String: Bucket], at now: ContinuousClock.Instant) {
        buckets = buckets.filter { $0.value.tokens + perSecond * (now - $0.value.updated).timeInterval < burst }
    }
}
