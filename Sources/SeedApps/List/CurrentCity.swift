import Observation

/// The session's current city (seed 000's `LocationManager` / `MTACityManager.currentCityId`),
/// owned by the list and shared with its scenic cells, so that changing it re-renders every
/// cell whose right footer depends on it.
@Observable
public final class CurrentCity {
    /// The id of the city the user is in (`City.id`).
    public var id: Int

    /// Creates a holder for the city with id `id`.
    public init(id: Int) {
        self.id = id
    }
}
