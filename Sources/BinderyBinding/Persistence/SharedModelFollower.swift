import BinderyRuntime
import BinderyStore

/// Keeps this node's shared models in step with the other nodes sharing the store: a committed
/// write of a record (the pseudo-session's `<model>/<id>`) newer than the model's copy reloads
/// that record, and after missed notifications (`resynchronize`) every record is reloaded.
/// View models bound to a reloaded record follow it as they follow local changes.
struct SharedModelFollower: Sendable {
    let feed: any ChangeFeed
    let models: [any SharedModel]

    /// Follows the feed until it ends (the store closes) or the task is cancelled.
    func run() async {
        for await change in feed.changes() {
            switch change {
            case .resynchronize:
                for model in models { await model.connection.refreshAll() }
            case .changed(let change):
                for model in models {
                    guard let id = StoreRecordStorage.recordID(of: change.key, model: model.name) else { continue }
                    await model.connection.refresh(id, change.version)
                }
            case .announcement:
                continue
            }
        }
    }
}
