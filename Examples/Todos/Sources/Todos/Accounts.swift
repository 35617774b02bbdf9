import Bindery
import Foundation

/// Who may sign in: a file of `username:bcrypt-hash` lines (`TodosServer add-user` writes them), read
/// at every sign-in, so a user added while the server runs can sign in at once. The username is the
/// user's id and name.
public struct Accounts: Sendable {
    /// The file's path.
    public let file: String

    /// The accounts kept in the file at `file` (made by the first `add`).
    public init(file: String) { self.file = file }

    /// The verifier of `BinderyApp(users:)`.
    public var users: Users {
        Users { [self] credentials in
            let hash = entries().last { $0.username == credentials.username }?.hash
            // A missing account is checked against a dummy hash: the answer takes as long.
            guard await PasswordHash.verify(credentials.password, against: hash) else { return nil }
            return User(id: credentials.username, name: credentials.username)
        }
    }

    /// Adds the user `username` (one line without a colon) with `password`, hashed at bcrypt's work
    /// factor `cost`, or gives them a new password.
    public func add(_ username: String, password: String, cost: UInt8 = PasswordHash.defaultCost) async throws {
        let others = entries().filter { $0.username != username }.map { "\($0.username):\($0.hash)\n" }
        let hash = await PasswordHash.make(password, cost: cost)
        try (others.joined() + "\(username):\(hash)\n").write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// The file's lines as (username, hash); none when there is no file.
    func entries() -> [(username: String, hash: String)] {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }
}
