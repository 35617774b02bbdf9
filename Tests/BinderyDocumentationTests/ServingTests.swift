import Bindery
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The article "Serving and stores": an app served on a free port over a store in memory, asked
/// over HTTP as any client asks it.
struct ServingTests {
    static let users = Users { credentials in
        guard credentials.username == "ada", credentials.password == "passw0rd" else { return nil }
        return User(id: "u-ada", name: "Ada", roles: ["admin"])
    }

    @Test func servesTheAppAndItsRulesOverHTTP() async throws {
        let app = DocumentsViewModel.app(users: Self.users)
        let configuration = BinderyConfiguration(server: ServerConfiguration(port: 0), store: .memory, publicDirectory: nil)
        let server = try await BinderyServer(app, configuration: configuration)
        let port = try await server.start()
        let client = Client(base: "http://127.0.0.1:\(port)")
        #expect(try await client.send("GET", "/api/views/documents").status == 401)
        #expect(try await client.send("DELETE", "/api/cache").status == 401)
        let signIn = try await client.send("POST", "/api/session/sign-in", body: #"{"username": "ada", "password": "passw0rd"}"#)
        #expect(signIn.status == 200)
        let token = try #require(signIn.json["token"]?.stringValue)
        let documents = try await client.send("GET", "/api/views/documents", token: token)
        #expect(documents.json["outputs"]?["signedInAs"] == "Ada")
        #expect(try await client.send("DELETE", "/api/cache", token: token).status == 204)
        await server.shutdown()
    }

    @Test func storesAreNamedAsOnTheCommandLine() throws {
        #expect(try StoreLocation(parsing: "sqlite:app.sqlite") == .sqlite(path: "app.sqlite"))
        #expect(try StoreLocation(parsing: "postgres://app@127.0.0.1:5432/app") == .postgres(url: "postgres://app@127.0.0.1:5432/app"))
        #expect(try StoreLocation(parsing: "memory") == .memory)
        #expect(StoreLocation.default == .sqlite(path: ".bindery/bindery.sqlite"))
    }
}

/// A few requests over URLSession, as any HTTP client makes them.
struct Client {
    let base: String

    func send(
        _ method: String, _ path: String, token: String? = nil, body: String? = nil
    ) async throws -> (status: Int, json: JSONValue) {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = try #require(response as? HTTPURLResponse).statusCode
        return (status, (try? JSONValue(parsing: Array(data))) ?? .null)
    }
}
