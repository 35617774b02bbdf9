/// The fake upstream's endpoints; each has its own settings and its own random sequence.
public enum UpstreamEndpoint: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    /// Scenic spots (seed 000's travel data).
    case travel
    /// Hotels (seed 000's hotel data).
    case hotel
    /// The gallery's photo list (seed 004's `importPhotos`).
    case photos
    /// One photo's details with its full-size image (seed 004's `fetchPhotoDetails:`).
    case photoDetails
    /// The course list (seed 001's `MarshalService` `fetchDataCompletion:`).
    case courses
    /// The accounts service: checks a phone number and password (the login form's sign-in).
    case accounts
}

extension UpstreamEndpoint {
    /// A fixed salt mixed into the settings' seed, so each endpoint draws its own sequence
    /// (FNV-1a of the raw value: stable across runs, unlike `Hasher`).
    var streamSalt: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
