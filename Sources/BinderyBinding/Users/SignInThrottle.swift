import Synchronization

/// How often sign-ins may fail before they are refused for a while (OWASP's authentication cheat
/// sheet: limit attempts per account and per address, without telling which accounts exist).
///
/// Failures are counted per account (the username, lower-cased, whether the account exists or
/// not) and per client address, in a sliding window. Once an account has failed ``accountLimit``
/// times in the window, every attempt for it is refused (429) until the oldest of those failures
/// leaves the window; the same per address with ``addressLimit``, so one client cannot try many
/// accounts either. An attempt counts as a failure from the moment it is admitted, so attempts
/// sent all at once meet the limit as those sent one after the other do; a success then clears
/// its account's failures and takes its own back from the address, and an attempt that could not
/// be checked (the verifier's service failed) is taken back whole. The counts live in this node's
/// memory: behind several nodes a determined client gets at most the limit on each.
package final class SignInThrottle: Sendable {
    /// Failures of one account allowed in the window.
    let accountLimit: Int
    /// Failures from one address allowed in the window.
    let addressLimit: Int
    /// How long a failure counts.
    let window: Duration
    private let failures = Mutex(Failures())
    /// The most accounts and addresses remembered; beyond, the oldest are forgotten.
    private static let capacity = 100_000

    private struct Failures {
        var byAccount: [String: [ContinuousClock.Instant]] = [:]
        var byAddress: [String: [ContinuousClock.Instant]] = [:]
    }

    /// A throttle of `accountLimit` failures per account and `addressLimit` per address in `window`.
    package init(accountLimit: Int = 5, addressLimit: Int = 20, window: Duration = .seconds(900)) {
        self.accountLimit = max(1, accountLimit)
        self.addressLimit = max(1, addressLimit)
        self.window = window
    }

    /// One admitted attempt, counted as failed until ``succeeded(_:)`` or ``uncounted(_:)``.
    struct Attempt: Sendable {
        fileprivate let account: String
        fileprivate let address: String?
        fileprivate let at: ContinuousClock.Instant
    }

    /// Seconds until an attempt for `account` from `address` may be made at `now`; nil when one
    /// may be made now.
    func retryAfter(account: String, address: String?, at now: ContinuousClock.Instant) -> Int? {
        failures.withLock { retryAfter(account: Self.key(account), address: address, at: now, in: $0) }
    }

    /// Admits an attempt for `account` from `address` at `now`, counted as a failure at once (in
    /// the same step as the check: attempts sent together cannot all pass it); or the seconds
    /// until one may be made.
    func admit(account: String, address: String?, at now: ContinuousClock.Instant) -> Result<Attempt, Refusal> {
        let key = Self.key(account)
        let cutoff = now - window
        return failures.withLock { failures in
            if let wait = retryAfter(account: key, address: address, at: now, in: failures) {
                return .failure(Refusal(retryAfter: wait))
            }
            Self.add(now, to: &failures.byAccount, key: key, after: cutoff, keep: accountLimit)
            if let address { Self.add(now, to: &failures.byAddress, key: address, after: cutoff, keep: addressLimit) }
            return .success(Attempt(account: key, address: address, at: now))
        }
    }

    /// The attempt signed in: its account's failures are cleared, and the address no longer
    /// counts this attempt.
    func succeeded(_ attempt: Attempt) {
        failures.withLock { failures in
            failures.byAccount[attempt.account] = nil
            Self.remove(attempt.at, from: &failures.byAddress, key: attempt.address)
        }
    }

    /// The attempt could not be checked (the verifier's service failed): it counts against
    /// neither the account nor the address.
    func uncounted(_ attempt: Attempt) {
        failures.withLock { failures in
            Self.remove(attempt.at, from: &failures.byAccount, key: attempt.account)
            Self.remove(attempt.at, from: &failures.byAddress, key: attempt.address)
        }
    }

    /// Why an attempt was not admitted: too many failures; the seconds until one may be made.
    struct Refusal: Error {
        let retryAfter: Int
    }

    private func retryAfter(account key: String, address: String?, at now: ContinuousClock.Instant, in failures: Failures) -> Int? {
        var waits: [Duration] = []
        if let wait = Self.wait(failures.byAccount[key], limit: accountLimit, window: window, now: now) {
            waits.append(wait)
        }
        if let address, let wait = Self.wait(failures.byAddress[address], limit: addressLimit, window: window, now: now) {
            waits.append(wait)
        }
        return waits.max().map { max(1, Int(($0 / .seconds(1)).rounded(.up))) }
    }

    /// Takes one failure at `time` out of the entry `key` of `table`.
    private static func remove(_ time: ContinuousClock.Instant, from table: inout [String: [ContinuousClock.Instant]], key: String?) {
        guard let key, var times = table[key], let index = times.lastIndex(of: time) else { return }
        times.remove(at: index)
        table[key] = times.isEmpty ? nil : times
    }

    /// The account's key: usernames differ in letter case only as far as the user typed them.
    private static func key(_ account: String) -> String { account.lowercased() }

    /// How long until `times` (oldest first) holds fewer than `limit` failures within `window`.
    private static func wait(
        _ times: [ContinuousClock.Instant]?, limit: Int, window: Duration, now: ContinuousClock.Instant
    ) -> Duration? {
        guard let times else { return nil }
        let recent = times.filter { $0 > now - window }
        guard recent.count >= limit else { return nil }
        return recent[recent.count - limit] + window - now
    }

    private static func add(
        _ time: ContinuousClock.Instant, to table: inout [String: [ContinuousClock.Instant]], key: String,
        after cutoff: ContinuousClock.Instant, keep: Int
    ) {
        var times = table[key, default: []].filter { $0 > cutoff }
        times.append(time)
        table[key] = Array(times.suffix(keep))
        guard table.count > capacity else { return }
        // Forget what no longer counts, then (a flood of distinct names) the oldest half.
        table = table.filter { $0.value.last.map { $0 > cutoff } ?? false }
        if table.count > capacity {
            let newest = table.sorted { ($0.value.last ?? cutoff) > ($1.value.last ?? cutoff) }.prefix(capacity / 2)
            table = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
    }
}
