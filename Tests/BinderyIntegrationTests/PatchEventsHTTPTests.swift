import BinderyBinding
import BinderyRuntime
import Testing

/// Streams opened with `?patches=1` get JSON Patch events after their first snapshot (issue 13).
@Suite("Event streams with JSON Patch events")
struct PatchEventsHTTPTests {
    @Test func aPatchStreamStartsWithASnapshotThenSendsPatchesThatApply() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/form/events?patches=1")
            let first = try await stream.next { _ in true }
            #expect(first.type == nil, "the first event is a whole snapshot")
            var document = first.value
            for phone in ["1", "12", "123"] {
                _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "\#(phone)"}"#)
                let event = try await stream.next { _ in true }
                #expect(event.type == "patch")
                document = try JSONPatch.apply(try #require(event.value.arrayValue), to: document)
                #expect(document.objectValue?["version"]?.intValue == event.id)
            }
            let current = try await client.request("GET", "/api/views/form")
            #expect(document == current.jsonValue, "the patched document is the snapshot the server serves")
            stream.close()
        }
    }

    @Test func aPlainStreamStillSendsWholeSnapshots() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/form/events")
            _ = try await stream.next { _ in true }
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1"}"#)
            let event = try await stream.next { _ in true }
            #expect(event.type == nil)
            #expect(event.data["inputs"]?.objectValue?["phone"] == "1")
            stream.close()
        }
    }

    @Test func changingTheCityOfALoadedListSendsASmallPatch() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let loaded = try await client.request("POST", "/api/views/list/commands/load", headers: ["Prefer": "wait=10"])
            #expect(loaded.status == 200)
            let stream = try await client.events("/api/views/list/events?patches=1")
            let first = try await stream.next { _ in true }
            _ = try await client.request("PATCH", "/api/views/list", body: #"{"currentCityId": 10}"#)
            let change = try await stream.next { _ in true }
            #expect(change.type == "patch")
            #expect(change.size <= 2048, "a city change is \(change.size) bytes against a \(first.size)-byte snapshot")
            let patched = try JSONPatch.apply(try #require(change.value.arrayValue), to: first.value)
            let current = try await client.request("GET", "/api/views/list")
            #expect(patched == current.jsonValue)
            stream.close()
        }
    }
}
