import Clocks
import BinderyBinding
import BinderyRuntime
import Testing

@Suite("Live push over HTTP: event streams, activation, resume, long-poll, limits, shutdown")
struct EventsHTTPTests {
    @Test func aClientThatClosesItsStreamIsFreedWithinOneHeartbeat() async throws {
        // A heartbeat finds the closed connection (its socket reads end-of-file) and ends the
        // stream without writing to it. Before, a client that closed was noticed only when a write
        // failed: at the second heartbeat after it left. The server's heartbeats sleep on a test
        // clock that never moves here; the test gives every slot its beat once, which is one
        // heartbeat for every stream. (Advancing the clock by one heartbeat raced with the loop's
        // next sleep on a loaded machine: a tick whose sleep came late was never woken.)
        let clock = TestClock()
        try await TestServer.with(streams: StreamLimits(heartbeat: .seconds(4)), clock: clock) { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/form/events")
            _ = try await stream.next { _ in true }
            let streams = server.application.streams
            #expect(streams.count == 1)
            stream.close()
            for slot in 0..<streams.heartbeatSlots { streams.beat(slot: slot) }
            // Ending the stream runs on its own; wait for it (real time only bounds the wait).
            let started = ContinuousClock.now
            while server.application.streams.count > 0, ContinuousClock.now - started < .seconds(20) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.application.streams.count == 0, "one heartbeat, not two")
        }
    }

    @Test func openingAPhotoStreamLoadsThePhoto() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/gallery/photos/1/events")
            #expect(stream.head.status == 200)
            #expect(stream.head.header("Content-Type") == "text/event-stream")
            let loading = try await stream.next { $0.output("photo")?.objectValue?["loading"] == true }
            #expect(loading.data["active"] == true)
            let loaded = try await stream.next { $0.output("photo")?.objectValue?["loading"] == false }
            #expect(loaded.output("photo")?.objectValue?["photoImage"]?.stringValue?.hasSuffix(".svg") == true)
            #expect((loaded.id ?? 0) > (loading.id ?? 0))
            stream.close()

            let outOfBounds = try await client.request("GET", "/api/views/gallery/photos/999")
            #expect(outOfBounds.status == 404)
            let selected = try await client.request("POST", "/api/views/gallery/commands/select", body: #"{"index": 2}"#)
            #expect(selected.json["navigate"] == "/gallery/photos/2")
        }
    }

    /// On the recipe editor (signed in, as editing needs), not the form: a resumed stream of the
    /// form gets its current snapshot instead of its logged versions, its password being sensitive.
    @Test func streamsPushPatchesFromAnotherConnectionAndResumeWithoutGapsOrDuplicates() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession()
            let edit = "/api/views/recipes/c41/edit"
            let stream = try await client.events("\(edit)/events")
            let first = try await stream.next { _ in true }
            _ = try await client.request("PATCH", edit, body: #"{"filmType": "colourSlide"}"#)
            let pushed = try await stream.next { _ in true }
            #expect(pushed.data["inputs"]?.objectValue?["filmType"] == "colourSlide")
            #expect(pushed.id == (first.id ?? 0) + 1)
            stream.close()

            let upToDate = try await client.events("\(edit)/events", headers: ["Last-Event-ID": "\(pushed.id ?? 0)"])
            _ = try await client.request("PATCH", edit, body: #"{"filmType": "blackAndWhite"}"#)
            let next = try await upToDate.next { _ in true }
            #expect(next.id == (pushed.id ?? 0) + 1, "no duplicate of the version the client had")
            upToDate.close()

            // A client that missed versions gets each of them from the version log, in order.
            let behind = try await client.events("\(edit)/events?lastEventId=\(first.id ?? 0)")
            var ids: [Int] = []
            var filmType: JSONValue?
            while filmType != "blackAndWhite" {
                let event = try await behind.next { _ in true }
                ids.append(event.id ?? 0)
                filmType = event.data["inputs"]?.objectValue?["filmType"]
            }
            #expect(ids == Array((first.id ?? 0) + 1...(next.id ?? 0)), "no gap, no duplicate")
            behind.close()
        }
    }

    /// The form's password is sensitive: its version log keeps it masked, so a stream that missed
    /// versions of the form resumes from the current snapshot rather than from the log.
    @Test func aStreamOfAFormWithASecretResumesFromTheCurrentSnapshot() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let first = try #require(try await client.request("GET", "/api/views/form").version)
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "1"}"#)
            let latest = try await client.request("PATCH", "/api/views/form", body: #"{"phone": "12", "password": "s3cret-pass"}"#)
            #expect(latest.version == first + 2)
            let behind = try await client.events("/api/views/form/events?lastEventId=\(first)")
            defer { behind.close() }
            let event = try await behind.next { _ in true }
            // The stream's activation may add a version; the log would start at first + 1.
            #expect((event.id ?? 0) >= (latest.version ?? .max), "the current version, not the first one missed")
            #expect(event.data["inputs"]?.objectValue?["phone"] == "12")
            #expect(event.data["inputs"]?.objectValue?["password"] == "s3cret-pass", "the session sees what it typed")
        }
    }

    @Test func longPollWakesOnAPatchFromAnotherConnection() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let current = try await client.request("GET", "/api/views/form")
            let version = try #require(current.version)
            async let woken = client.request("GET", "/api/views/form?after=\(version)", headers: ["Prefer": "wait=10"])
            // The write may land before or after the poll starts waiting; either way it answers it.
            _ = try await client.request("PATCH", "/api/views/form", body: #"{"password": "woken up"}"#)
            let answer = try await woken
            #expect(answer.status == 200)
            #expect(answer.input("password") == "woken up")

            let timedOut = try await client.request("GET", "/api/views/form?after=\(answer.version ?? 0)", headers: ["Prefer": "wait=0.05"])
            #expect(timedOut.status == 304)
            let badVersion = try await client.request("GET", "/api/views/form?after=soon")
            #expect(badVersion.status == 400)
        }
    }

    @Test func streamsAreBoundedPerSessionAndInTotal() async throws {
        try await TestServer.with(streams: StreamLimits(perSession: 2, total: 3)) { server in
            let alice = try await server.newSession()
            let first = try await alice.events("/api/views/form/events")
            let second = try await alice.events("/api/views/list/events")
            let third = try await alice.events("/api/views/form/events")
            #expect(third.head.status == 429)
            let bob = try await server.newSession()
            let bobs = try await bob.events("/api/views/form/events")
            #expect(bobs.head.status == 200)
            let overTotal = try await bob.events("/api/views/list/events")
            #expect(overTotal.head.status == 503)

            for stream in [first, second, third, bobs, overTotal] { stream.close() }
        }
    }

    @Test func aStreamRefusedForAnUnknownViewModelGivesItsPlaceBack() async throws {
        try await TestServer.with(streams: StreamLimits(perSession: 3, total: 3)) { server in
            let client = try await server.newSession()
            for _ in 0..<5 {
                let missing = try await client.events("/api/views/nowhere/events")
                #expect(missing.head.status == 404)
                missing.close()
            }
            #expect(server.application.streams.count == 0)
            let open = try await client.events("/api/views/form/events")
            #expect(open.head.status == 200)
            open.close()
        }
    }

    @Test func closingTheLastStreamMakesTheViewModelInactive() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/form/events")
            let event = try await stream.next { _ in true }
            #expect(event.data["active"] == true)
            stream.close()
            // A closed stream is noticed on the next write; a patch makes one.
            var active = true
            for _ in 0..<200 where active {
                _ = try await client.request("PATCH", "/api/views/form", body: #"{"password": "\#(UUIDText.next())"}"#)
                active = try await client.request("GET", "/api/views/form").json["active"] == true
            }
            #expect(!active)
        }
    }

    @Test func shutdownEndsOpenStreamsCleanly() async throws {
        // Heartbeats an hour apart: a shutdown that waited for the streams to notice it would wait
        // an hour, one that ends them takes milliseconds (seconds beside the whole suite).
        let server = try await TestServer.start(streams: StreamLimits(heartbeat: .seconds(3600)))
        let client = try await server.newSession()
        let streams = [
            try await client.events("/api/views/form/events"),
            try await client.events("/api/views/list/events"),
        ]
        for stream in streams { _ = try await stream.next { _ in true } }
        let started = ContinuousClock.now
        await server.application.shutdown()
        #expect(ContinuousClock.now - started < .seconds(300), "the shutdown waited for a heartbeat")
        for stream in streams {
            // Each stream ends: the remaining events drain and the body finishes (or the socket closes).
            var ended = false
            for _ in 0..<10 where !ended {
                ended = (try? await stream.next()) == nil
            }
            #expect(ended)
            stream.close()
        }
    }
}

/// Distinct texts for writes that must change state.
enum UUIDText {
    static func next() -> String { String(UInt64.random(in: 0...UInt64.max), radix: 36) }
}
