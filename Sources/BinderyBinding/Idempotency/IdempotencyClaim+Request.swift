import BinderyRuntime
import BinderyStore

extension IdempotencyClaim {
    /// The store's form of a request's claim; nil when its session is not a token hash.
    init?(_ claim: RequestClaim) {
        guard let session = SessionTokenHash(bytes: claim.session) else { return nil }
        self.init(
            session: session, key: claim.key, fingerprint: claim.fingerprint, attempt: claim.attempt, at: claim.at,
            expiredBefore: claim.expiredBefore
        )
    }
}
