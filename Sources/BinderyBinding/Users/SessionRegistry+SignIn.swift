import BinderyRuntime
import BinderyStore
import Foundation

/// Signing in and out: the app checks the credentials (``Users``), the registry gives the session
/// a new token under the same key, and ends sessions here and on every node.
extension SessionRegistry {
    /// Checks `credentials` for `session` (a client at `address`) and signs it in: the user and
    /// the session's new token, or nil when the credentials are wrong (counted against the
    /// account and the address).
    func signIn(
        _ session: Session, with credentials: Credentials, from address: String?
    ) async throws(SignInError) -> (user: User, token: String)? {
        guard let user = try await verify(credentials, from: address) else { return nil }
        return (user, try await signIn(session, as: user))
    }

    /// Checks `credentials` (from a client at `address`) with the app's verifier, within the limits
    /// on failed attempts: the user, or nil when they are wrong (counted against the account and
    /// the address).
    func verify(_ credentials: Credentials, from address: String?) async throws(SignInError) -> User? {
        guard let users else {
            throw .unavailable(ExecutionFailure(message: "This app signs nobody in.", origin: .internal))
        }
        let attempt: SignInThrottle.Attempt
        switch throttle.admit(account: credentials.username, address: address, at: now()) {
        case .success(let admitted): attempt = admitted
        case .failure(let refusal): throw .throttled(retryAfter: refusal.retryAfter)
        }
        let user: User?
        do {
            user = try await users.verify(credentials)
        } catch {
            throttle.uncounted(attempt)
            // Whatever stopped the verifier, the accounts could not be checked: an upstream's failure
            // (502), shown with its own message when it has one.
            let failure = ExecutionFailure(error)
            throw .unavailable(
                failure.origin == .upstream
                    ? failure : ExecutionFailure(message: "The accounts could not be checked; try again.", origin: .upstream)
            )
        }
        guard let user else { return nil }  // counted as failed since it was admitted
        throttle.succeeded(attempt)
        return user
    }

    /// Signs `session` in as `user` and answers its new token: the store records the user and the
    /// new token's hash in place of the old one (which is refused from then on, here and on every
    /// node), the session keeps its key and state, its view models see the user, and the user's
    /// records are loaded first.
    func signIn(_ session: Session, as user: User) async throws(SignInError) -> String {
        let previous = session.user
        if let previous, previous.id != user.id { throw .signedInAsAnother }
        let claimed = previous == nil
        if claimed {
            do { try await spaces.acquire(user.id) } catch { throw .sessionUnavailable }
        }
        let old = session.secret
        let new = SessionSecret.random()
        do {
            let profile = try JSONEncoder().encode(user)
            try await store.signIn(
                session.tokenHash, replacing: SessionTokenHash(token: old.token), with: SessionTokenHash(token: new.token),
                as: StoredUser(id: user.id, profile: profile)
            )
        } catch {
            if claimed { spaces.release(user.id) }
            throw .sessionUnavailable
        }
        let moved = sessions.withLock { live -> Bool in
            guard live[old] === session else { return false }
            session.replaceSecret(with: new)
            _ = live.move(session, from: old)
            return true
        }
        guard moved else {
            // It left memory meanwhile: signed in all the same, and its next request restores it
            // under the new token; but this answer cannot say so safely.
            if claimed { spaces.release(user.id) }
            throw .sessionUnavailable
        }
        // From here on, streams and long-polls opened with the old token are sent nothing (whoever
        // holds it sees nothing the view models show of the user), and none opens with it. The
        // client's own streams reopen with the new token and resume where they were.
        session.viewer.setUser(user)
        // What the anonymous session was allowed to see was served from its board: check again.
        session.graph.board.removeAll()
        await announce(dropping: [SessionNotice.Drop(key: session.tokenHash, credential: SessionTokenHash(token: old.token))])
        // Answered once what the user changes (who the view models show) is rendered and committed.
        await session.graph.viewerChanged()
        return new.token
    }

    /// Ends `session` for good (sign out): deleted from the store, its streams ended, its token
    /// refused from then on, here and on every node.
    func signOut(_ session: Session) async throws(ViewModelError) {
        do {
            try await store.deleteSession(session.tokenHash)
        } catch {
            throw .storeUnavailable
        }
        drop([session.tokenHash])
        await announce(dropping: [SessionNotice.Drop(key: session.tokenHash, credential: nil)])
    }

    /// Ends every session of the user `id`, on every node (sign out everywhere); answers how many.
    func signOutEverywhere(user id: String) async throws(ViewModelError) -> Int {
        let ended: [SessionTokenHash]
        do {
            ended = try await store.deleteSessions(ofUser: id)
        } catch {
            throw .storeUnavailable
        }
        drop(ended)
        await announce(dropping: ended.map { SessionNotice.Drop(key: $0, credential: nil) })
        return ended.count
    }

    /// Takes the sessions with these keys out of memory and ends them (their streams get `end`).
    func drop(_ keys: [SessionTokenHash]) {
        drop(keys.map { SessionNotice.Drop(key: $0, credential: nil) })
    }

    /// Takes these sessions out of memory (each copy, or those held under a replaced token) and
    /// ends them.
    private func drop(_ drops: [SessionNotice.Drop]) {
        self.drops.add(1, ordering: .releasing)
        let wanted = Dictionary(drops.map { ($0.key, $0.credential) }) { first, _ in first }
        let dropped = sessions.withLock { live -> [Session] in
            let found = live.values.filter { session in
                guard let credential = wanted[session.tokenHash] else { return false }
                return credential.map { SessionTokenHash(token: session.token) == $0 } ?? true
            }
            for session in found { live[session.secret] = nil }
            return found
        }
        close(dropped)
    }

    /// Applies another node's announcement about sessions; ignores this node's own and anything
    /// that is not such a notice.
    func receive(_ announcement: String) {
        guard let notice = SessionNotice(text: announcement), notice.node != node else { return }
        drop(notice.drops)
    }

    /// After notifications may have been missed: drops every live session whose token the store no
    /// longer knows (signed out, or signed in with a new token, on another node).
    func revalidate() async {
        var stale: [SessionTokenHash] = []
        for session in liveSessions {
            do {
                let stored = try await store.session(SessionTokenHash(token: session.token))
                if stored?.tokenHash != session.tokenHash { stale.append(session.tokenHash) }
            } catch {
                // A store that cannot answer now proves nothing: the next resynchronization asks again.
            }
        }
        drop(stale)
    }

    /// Tells the other nodes to drop the sessions `keys`. One that misses it (its listening
    /// connection dropped) checks every live session against the store when it listens again
    /// (``revalidate()``).
    private func announce(dropping drops: [SessionNotice.Drop]) async {
        guard let feed = store.capabilities.changeFeed, !drops.isEmpty else { return }
        for text in SessionNotice.texts(dropping: drops, from: node) {
            try? await feed.announce(text)
        }
    }
}

/// How one session's view models sign it in (a sign-in command): the registry's sign-in, with the
/// session's client address counted for the attempts.
final class SessionSignIn: SignInService {
    private let registry: SessionRegistry
    private weak let session: Session?

    init(registry: SessionRegistry, session: Session) {
        self.registry = registry
        self.session = session
    }

    func admit(account: String) throws(ViewModelError) {
        if let wait = registry.throttle.retryAfter(account: account, address: session?.address, at: registry.now()) {
            throw .tooManySignInAttempts(retryAfter: wait)
        }
    }

    func signIn(_ credentials: Credentials) async throws -> User? {
        guard let session else { throw SignInError.sessionUnavailable.executionFailure }
        do {
            guard let (user, token) = try await registry.signIn(session, with: credentials, from: session.address) else {
                return nil
            }
            // The request running the command answers with the token, and no other.
            SignInRecord.current?.record(token)
            return user
        } catch {
            throw error.executionFailure
        }
    }
}
