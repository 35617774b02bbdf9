import BinderyRuntime
import Foundation
import Testing

/// Presence over HTTP: who is on a screen and in which field, pushed to the others' streams.
@Suite("Presence over HTTP: PUT, DELETE, and the presence event")
struct PresenceHTTPTests {
    static let edit = "/api/views/recipes/c41/edit"

    @Test func presenceIsPushedToTheOthersAndGoneWhenTheyLeave() async throws {
        try await TestServer.with { server in
            let typist = try await server.newSession()
            let watcher = try await server.newSession()
            let stream = try await watcher.events("\(Self.edit)/events")
            defer { stream.close() }
            _ = try await stream.next(where: { $0.id == 1 })

            let here = try await typist.request("PUT", "\(Self.edit)/presence", body: #"{"field": "blurb"}"#)
            #expect(here.status == 200)
            #expect(here.json["others"] == [])
            let you = try #require(here.json["you"]?.objectValue)
            let name = you["name"]?.stringValue ?? ""
            #expect(name.split(separator: " ").count == 2, "an adjective and an animal")
            let arrived = try await stream.next(where: { $0.type == "presence" })
            #expect(arrived.data["others"] == [["id": you["id"]!, "name": you["name"]!, "colour": you["colour"]!, "field": "blurb"]])

            let seen = try await watcher.request("GET", "\(Self.edit)/presence")
            #expect(seen.json["others"]?.arrayValue?.first?.objectValue?["field"] == "blurb")
            #expect(seen.json["you"]?.objectValue?["id"] != you["id"])

            // A heartbeat in the same field changes nothing anyone sees; another field does.
            _ = try await typist.request("PUT", "\(Self.edit)/presence", body: #"{"field": "blurb"}"#)
            _ = try await typist.request("PUT", "\(Self.edit)/presence", body: #"{"field": null}"#)
            let moved = try await stream.next(where: { $0.type == "presence" })
            #expect(moved.data["others"]?.arrayValue?.first?.objectValue?["field"] == .null)

            #expect(try await typist.request("DELETE", "\(Self.edit)/presence").status == 200)
            let left = try await stream.next(where: { $0.type == "presence" })
            #expect(left.data["others"] == [])
            // Another screen's presence is not this one's.
            _ = try await typist.request("PUT", "/api/views/recipes/d76/edit/presence")
            #expect(try await watcher.request("GET", "\(Self.edit)/presence").json["others"] == [])
        }
    }

    @Test func aStreamOpenedLaterGetsWhoIsThereFirst() async throws {
        try await TestServer.with { server in
            let typist = try await server.newSession()
            let late = try await server.newSession()
            _ = try await typist.request("PUT", "\(Self.edit)/presence", body: #"{"field": "name"}"#)
            let stream = try await late.events("\(Self.edit)/events")
            defer { stream.close() }
            let first = try await stream.next()
            #expect(first?.type == "presence")
            #expect(first?.data["others"]?.arrayValue?.count == 1)
        }
    }

    @Test func aSessionsOwnScreenHasNobodyElse() async throws {
        try await TestServer.with { server in
            let first = try await server.newSession()
            let second = try await server.newSession()
            _ = try await first.request("PUT", "/api/views/form/presence", body: #"{"field": "phone"}"#)
            let answer = try await second.request("PUT", "/api/views/form/presence", body: #"{"field": "password"}"#)
            #expect(answer.status == 200)
            #expect(answer.json["others"] == [], "each session has a form of its own")
            #expect(answer.json["you"]?.objectValue?["field"] == "password")
        }
    }

    /// One character of 201 code points: lengths count code points, as JSON Schema's
    /// `maxLength` does, not what Swift calls characters.
    static let combining = #"{"field": "e\#(String(repeating: "\u{0301}", count: 200))"}"#

    @Test func badPresenceIsRefused() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            for body in [
                #"{"field": 3}"#, #"{"field": ""}"#, #"{"where": "x"}"#, "[1]", "null", #"{"field": "\#(String(repeating: "f", count: 201))"}"#,
                Self.combining,
            ] {
                let refused = try await client.request("PUT", "\(Self.edit)/presence", body: body)
                #expect(refused.status == 422, "\(body)")
            }
            #expect(try await client.request("PUT", "/api/views/recipes/nope/edit/presence").status == 404)
            #expect(try await client.request("POST", "\(Self.edit)/presence").status == 405)
        }
    }
}
