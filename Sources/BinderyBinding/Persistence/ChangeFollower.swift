import BinderyStore

/// Follows the commits announced by a shared store (PostgreSQL's LISTEN/NOTIFY): when another
/// node commits a version of a view model this node holds and someone here follows it (a stream,
/// a long-poll, a running command), the view model is reloaded and its watchers here get the new
/// version pushed. A session nobody here follows leaves this node's memory (another node is
/// using it: nginx sends its requests there) and stops being announced here; if it is still
/// in use here, it is only marked behind and reloads on its next use.
/// After a dropped and re-established feed, every view model held here is caught up from the
/// store the same way, so no watcher misses a version. Presence announced by other nodes goes to
/// the presence board; sessions they ended or signed in leave this node's memory.
struct ChangeFollower: Sendable {
    let feed: any ChangeFeed
    let sessions: SessionRegistry
    let metrics: BinderyMetrics
    /// Where presence announced by other nodes goes.
    let presence: PresenceRelay

    /// Runs until the feed ends (the store closed) or the task is cancelled.
    func run() async {
        for await change in feed.changes() {
            switch change {
            case .changed(let change):
                metrics.storeChangeReceived()
                // Our own commits are already shown: refresh does nothing for them.
                guard let session = sessions.live(hash: change.key.session) else { continue }
                switch await session.graph.refresh(change.key.path, toVersion: change.version) {
                case .reloaded: metrics.storeNotification(lag: nil, reloaded: true)
                case .markedBehind:
                    metrics.storeNotification(lag: nil, reloaded: false)
                    await sessions.letGo(session)
                case .current:
                    // Not a view model held here (a session only made here, say): the same.
                    await sessions.letGo(session)
                }
            case .resynchronize:
                // Missed notifications may have ended or re-keyed sessions on other nodes too.
                await sessions.revalidate()
                for session in sessions.liveSessions { await session.graph.refreshAll() }
            case .announcement(let message):
                presence.receive(message)
                sessions.receive(message)
            }
        }
    }
}
