import Synchronization

/// Which client the server serves now: the fingerprint of the client's files
/// (``ClientTree/fingerprint``, the one in the page's asset URLs and in its
/// `<meta name="bindery-client">`), told with every answer of the API (``ClientVersionHeader``) and
/// on every event stream (`event: client`), so that an open page made from other files learns of a
/// deploy and reloads (`js/deploy.js`).
///
/// Knowing it means looking at every file of the layers, so it is looked at again at most once
/// per ``freshness``, by the request that finds it older than that (the others meanwhile answer
/// with the one known); a page made from newer files says so at once (``saw(_:)``). Open streams
/// are told when a look finds another (``watch(_:)``).
final class ClientVersion: Sendable {
    private struct State {
        var fingerprint: String
        var checked: ContinuousClock.Instant
        var looking = false
        var watchers: [Int: @Sendable (String) -> Void] = [:]
        var nextWatcher = 0
    }

    /// How long a fingerprint is taken as current without looking at the files again.
    static let freshness: Duration = .seconds(1)

    private let roots: [String]
    private let state: Mutex<State>

    /// The client of the layers `roots` (the first winning a name), as ``PageShell`` makes pages of it.
    init(roots: [String]) {
        self.roots = roots
        state = Mutex(State(fingerprint: ClientTree(roots: roots).fingerprint, checked: .now))
    }

    /// The fingerprint of the client's files now (at most ``freshness`` old).
    var current: String {
        let now = ContinuousClock.now
        let (known, look) = state.withLock { state in
            guard !state.looking, now - state.checked >= Self.freshness else { return (state.fingerprint, false) }
            state.looking = true
            return (state.fingerprint, true)
        }
        guard look else { return known }
        let found = ClientTree(roots: roots).fingerprint
        saw(found)
        return found
    }

    /// The files were seen to have `fingerprint` (a page was just made of them): answers say so
    /// from now on, and open streams are told if it is new.
    func saw(_ fingerprint: String) {
        let told = state.withLock { state -> [@Sendable (String) -> Void] in
            state.looking = false
            state.checked = .now
            guard state.fingerprint != fingerprint else { return [] }
            state.fingerprint = fingerprint
            return Array(state.watchers.values)
        }
        told.forEach { $0(fingerprint) }
    }

    /// Calls `changed` with each new fingerprint found from now on; answers the function that stops it.
    func watch(_ changed: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
        let id = state.withLock { state in
            state.nextWatcher &+= 1
            state.watchers[state.nextWatcher] = changed
            return state.nextWatcher
        }
        return { [weak self] in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
    }
}
