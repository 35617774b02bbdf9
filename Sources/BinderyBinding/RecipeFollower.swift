import BinderyFeatures
import BinderyStore

/// Keeps this node's recipe book in step with the other nodes sharing the store: a committed
/// write of a recipe record (the pseudo-session's `recipes/<id>`) that is newer than the book's
/// copy reloads that recipe, and after missed notifications (`resynchronize`) every recipe is
/// reloaded. Sessions bound to a reloaded recipe follow it as they follow local changes.
struct RecipeFollower: Sendable {
    let feed: any ChangeFeed
    let book: RecipeBook

    /// Follows the feed until it ends (the store closes) or the task is cancelled.
    func run() async {
        for await change in feed.changes() {
            switch change {
            case .resynchronize:
                await book.refresh()
            case .changed(let change):
                guard change.key.session == StoreRecipeRepository.session,
                    change.key.path.hasPrefix(StoreRecipeRepository.prefix)
                else { continue }
                let id = String(change.key.path.dropFirst(StoreRecipeRepository.prefix.count))
                await book.refresh(id: id, toVersion: change.version)
            }
        }
    }
}
