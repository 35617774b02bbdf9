import BinderyRuntime
import Foundation
import Testing

/// The contract of collaborative text inputs over HTTP, on the recipe editor's `name` and
/// `blurb`: `GET …/inputs/{name}`, `POST …/inputs/{name}/ops`, the `edits` event, and plain
/// PATCHes of the same inputs.
@Suite("Collaborative texts over HTTP: GET the text, POST ops, edits on the stream")
struct CollaborativeTextHTTPTests {
    static let edit = "/api/views/recipes/c41/edit"

    static func ops(_ id: String, base: Int, _ ops: String) -> String {
        #"{"id": "\#(id)", "base": \#(base), "ops": \#(ops)}"#
    }

    @Test func aTextAndItsRevisionAreTheSameInEverySession() async throws {
        try await TestServer.with { server in
            let first = try await server.newSession()
            let second = try await server.newSession()
            let a = try await first.request("GET", "\(Self.edit)/inputs/name")
            let b = try await second.request("GET", "\(Self.edit)/inputs/name")
            #expect(a.status == 200)
            #expect(a.header("Cache-Control") == "no-store")
            #expect(a.json == ["text": "C-41 colour negative", "revision": 1])
            #expect(b.json == a.json)
            let snapshot = try await first.request("GET", Self.edit)
            #expect(snapshot.json["texts"] == ["name": 1, "blurb": 1])
            #expect(try await first.request("GET", "\(Self.edit)/inputs/filmType").status == 404)
            #expect(try await first.request("GET", "\(Self.edit)/inputs/nothing").status == 404)
        }
    }

    @Test func concurrentOpsMergeAndARepeatedIDAppliesNothing() async throws {
        try await TestServer.with { server in
            let first = try await server.signedInSession(as: .lilei)
            let second = try await server.signedInSession(as: .hanmeimei)
            // Both typed on revision 1: one at the start, one at the end.
            let a = try await first.request("POST", "\(Self.edit)/inputs/name/ops", body: Self.ops("a1", base: 1, #"[{"p": 0, "si": "My "}]"#))
            #expect(a.status == 200)
            #expect(a.json["revision"] == 2)
            #expect(a.json["ops"] == [["p": 0, "si": "My "]])
            let b = try await second.request("POST", "\(Self.edit)/inputs/name/ops", body: Self.ops("b1", base: 1, #"[{"p": 20, "si": "!"}]"#))
            #expect(b.status == 200)
            #expect(b.json["from"] == 1)
            #expect(b.json["revision"] == 3)
            #expect(b.json["ops"] == [["p": 23, "si": "!"]], "moved past the 3 characters typed before it")
            #expect(b.json["concurrent"] == [["id": "a1", "revision": 2, "ops": [["p": 0, "si": "My "]]]])

            let again = try await second.request("POST", "\(Self.edit)/inputs/name/ops", body: Self.ops("b1", base: 1, #"[{"p": 20, "si": "!"}]"#))
            #expect(again.status == 200)
            #expect(again.json["revision"] == 3, "the first answer again")
            let text = try await first.request("GET", "\(Self.edit)/inputs/name")
            #expect(text.json == ["text": "My C-41 colour negative!", "revision": 3])
            let caughtUp = try await first.request("GET", "\(Self.edit)/inputs/name?after=1")
            #expect(caughtUp.json["from"] == 1)
            #expect(caughtUp.json["edits"]?.arrayValue?.count == 2)
        }
    }

    @Test func badEditsAreRefusedAndChangeNothing() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession()
            let path = "\(Self.edit)/inputs/name/ops"
            for body in [
                #"{"base": 1, "ops": []}"#, #"{"id": "", "base": 1, "ops": []}"#, #"{"id": "x", "base": -1, "ops": []}"#,
                #"{"id": "x", "base": 1, "ops": [{"p": 0}]}"#, #"{"id": "x", "base": 1, "ops": [{"p": 0, "sd": "Z"}]}"#,
                #"{"id": "x", "base": 1, "ops": [{"p": 99, "si": "Z"}]}"#, #"{"id": "x", "base": 9, "ops": []}"#,
                #"{"id": "x", "base": 1, "ops": [], "extra": 1}"#, "[1]",
                // One character of 129 code points: an id's length counts code points, as the schema's maxLength does.
                #"{"id": "e\#(String(repeating: "\u{0301}", count: 128))", "base": 1, "ops": []}"#,
            ] {
                let refused = try await client.request("POST", path, body: body)
                #expect(refused.status == 422, "\(body)")
                #expect(refused.header("Content-Type") == "application/problem+json")
            }
            let tooLong = String(repeating: "x", count: 200)
            let rule = try await client.request("POST", path, body: Self.ops("long", base: 1, #"[{"p": 0, "si": "\#(tooLong)"}]"#))
            #expect(rule.status == 422)
            #expect(rule.json["field"] == "name")
            #expect(try await client.request("GET", "\(Self.edit)/inputs/name").json == ["text": "C-41 colour negative", "revision": 1])
        }
    }

    @Test func aBaseOlderThanTheLogIs409() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession()
            // The store's version log keeps 64 versions: 70 edits push revision 1 out of it.
            for index in 0..<70 {
                let typed = try await client.request(
                    "POST", "\(Self.edit)/inputs/blurb/ops", body: Self.ops("k\(index)", base: index + 1, #"[{"p": 0, "si": "k"}]"#)
                )
                #expect(typed.status == 200)
            }
            let stale = try await client.request("POST", "\(Self.edit)/inputs/blurb/ops", body: Self.ops("old", base: 1, #"[{"p": 0, "si": "o"}]"#))
            #expect(stale.status == 409)
            #expect(stale.json["title"] == "Revision too old")
            let caughtUp = try await client.request("GET", "\(Self.edit)/inputs/blurb?after=1")
            #expect(caughtUp.json["edits"] == .null, "too old to catch up: reload the text")
            #expect(caughtUp.json["revision"] == 71)
        }
    }

    @Test func watchersGetTheAppliedOpsBeforeTheVersion() async throws {
        try await TestServer.with { server in
            let writer = try await server.signedInSession()
            let watcher = try await server.newSession()  // anonymous: reads, and gets the edits
            let stream = try await watcher.events("\(Self.edit)/events?patches=1")
            defer { stream.close() }
            _ = try await stream.next(where: { $0.id == 1 })
            _ = try await writer.request("POST", "\(Self.edit)/inputs/blurb/ops", body: Self.ops("w1", base: 1, #"[{"p": 0, "si": "New. "}]"#))
            let edits = try await stream.next()
            #expect(edits?.type == "edits")
            #expect(edits?.id == nil)
            #expect(
                edits?.data["texts"] == [
                    [
                        "path": "recipes/c41/edit", "input": "blurb", "from": 1, "revision": 2,
                        "edits": [["id": "w1", "revision": 2, "ops": [["p": 0, "si": "New. "]]]],
                    ]
                ])
            let version = try await stream.next()
            #expect(version?.id == 2)

            // A plain PATCH of a collaborative input replaces the text, as ops watchers apply.
            let patched = try await writer.request("PATCH", Self.edit, body: #"{"name": "C-41 negative"}"#)
            #expect(patched.status == 200)
            let replaced = try await stream.next(where: { $0.type == "edits" })
            let edit = replaced.data["texts"]?.arrayValue?.first?.objectValue
            #expect(edit?["input"] == "name")
            #expect(edit?["edits"]?.arrayValue?.first?.objectValue?["id"] == .null)
            #expect(try await writer.request("GET", "\(Self.edit)/inputs/name").json == ["text": "C-41 negative", "revision": 3])
        }
    }
}
