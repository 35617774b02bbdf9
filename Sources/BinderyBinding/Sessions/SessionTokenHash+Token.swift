import BinderyStore
import Crypto
import Foundation

extension SessionTokenHash {
    /// The SHA-256 of a session token: what the store keeps instead of the token.
    package init(token: some StringProtocol) {
        // A SHA-256 digest is always 32 bytes, the length the initialiser checks.
        self.init(bytes: Data(SHA256.hash(data: Data(token.utf8))))!
    }
}
