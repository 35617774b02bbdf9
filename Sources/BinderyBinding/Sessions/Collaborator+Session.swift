import BinderyRuntime
import BinderyStore
import Crypto
import Foundation

extension Collaborator {
    /// The collaborator a session appears as to others while anonymous: derived from a hash of its
    /// key (never the token, and not the key itself), so it is the same on every node and after a
    /// restart, and says nothing about the session's secret. Signed in, it shows the user's name
    /// (``Viewer/collaborator``) with the same id and colour.
    init(session hash: SessionTokenHash) {
        let digest = Array(SHA256.hash(data: Data("bindery presence".utf8) + hash.bytes))
        let adjective = Self.adjectives[Int(digest[0]) % Self.adjectives.count]
        let animal = Self.animals[Int(digest[1]) % Self.animals.count]
        self.init(
            id: digest[2..<8].map { String(format: "%02x", $0) }.joined(), name: "\(adjective) \(animal)",
            colour: Self.colours[Int(digest[8]) % Self.colours.count]
        )
    }

    private static let adjectives = [
        "Amber", "Azure", "Brisk", "Calm", "Clever", "Coral", "Crimson", "Eager", "Gentle", "Golden", "Jade", "Jolly",
        "Lively", "Lucky", "Mellow", "Misty", "Nimble", "Olive", "Plucky", "Quiet", "Rosy", "Sage", "Silver", "Sunny",
        "Swift", "Teal", "Tidy", "Violet", "Witty", "Zesty",
    ]

    private static let animals = [
        "Badger", "Beaver", "Bison", "Crane", "Dolphin", "Falcon", "Fox", "Gecko", "Heron", "Ibex", "Koala", "Lemur",
        "Lynx", "Marten", "Moose", "Newt", "Otter", "Owl", "Panda", "Puffin", "Quail", "Raven", "Seal", "Stoat",
        "Swan", "Tapir", "Tern", "Walrus", "Wombat", "Yak",
    ]

    /// Colours with at least 4.5:1 contrast against white, for names and carets.
    private static let colours = [
        "#b3261e", "#8e4585", "#5b3cc4", "#1f5fbf", "#0b6e7a", "#1d6f42", "#6b5d00", "#a04c00", "#7a4a2e", "#4a5568",
    ]
}
