import BinderyRuntime
import BinderyStore

/// Keeps this node's shared models in step with the other nodes sharing the store: a committed
/// write of a record (a record space's `<model>/<id>`) newer than the model's copy reloads that
/// record, and after missed notifications (`resynchronize`) every record is reloaded. A user's
/// record (``UserRecords``) is followed while that user's records are loaded here. View models
/// bound to a reloaded record follow it as they follow local changes.
struct SharedModelFollower: Sendable {
    let feed: any ChangeFeed
    let models: [any SharedModel]
    /// The users whose records are loaded here.
    let spaces: UserSpaces

    /// Follows the feed until it ends (the store closes) or the task is cancelled.
    func run() async {
        for await change in feed.changes() {
            switch change {
            case .resynchronize:
                for model in models { await model.connection.refreshAll() }
            case .changed(let change) where change.key.session == StoreRecordStorage.session:
                for model in models {
                    guard let id = StoreRecordStorage.recordID(of: change.key, model: model.name) else { continue }
                    await model.connection.refresh(id, change.version)
                }
            case .changed(let change):
                guard let user = spaces.user(ofSpace: change.key.session) else { continue }
                for model in spaces.perUserModels {
                    guard let id = StoreRecordStorage.recordID(of: change.key, model: model.name, space: change.key.session)
                    else { continue }
                    await model.connection.refresh(user, id, change.version)
                }
            case .announcement:
                continue
            }
        }
    }
}
