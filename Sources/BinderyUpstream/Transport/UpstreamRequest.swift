/// One request to the fake upstream.
enum UpstreamRequest: Equatable, Sendable {
    /// The scenic spots.
    case travel
    /// The hotels.
    case hotel
    /// The gallery's photo list.
    case photos
    /// One photo's details.
    case photoDetails(id: String)
    /// The course list.
    case courses
    /// The accounts service's accounts (with their password hashes).
    case accounts

    /// The endpoint that answers the request.
    var endpoint: UpstreamEndpoint {
        switch self {
        case .travel: .travel
        case .hotel: .hotel
        case .photos: .photos
        case .photoDetails: .photoDetails
        case .courses: .courses
        case .accounts: .accounts
        }
    }
}
