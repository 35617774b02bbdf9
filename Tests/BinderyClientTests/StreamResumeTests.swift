import BinderyClient
import Testing

@MainActor
@Suite("The event stream: patches applied, resumed with Last-Event-ID")
struct StreamResumeTests {
    @Test func patchesApplyAndAReconnectGetsOnlyWhatItMissed() async throws {
        try await ClientTestServer.with { server in
            let session = try await server.newSession()
            let watched = session.view("form")
            let writer = session.view("form")
            let following = Task { await watched.follow() }
            defer { following.cancel() }
            try await within {
                try await watched.wait { $0.connection == .live }
                let opened = try #require(watched.version)
                #expect(watched.streamLog == ["snapshot \(opened)"])

                try await writer.refresh()
                try await writer.write(["phone": "1"])
                try await watched.wait { $0.version == opened + 1 }
                #expect(watched.streamLog.last == "patch \(opened + 1)", "a small change comes as a JSON Patch")
                #expect(watched.snapshot == writer.snapshot, "the patched snapshot is the server's")

                // Cut the stream; two versions are made meanwhile; the reconnect resumes after the
                // last version it had: it gets those two, nothing it had already.
                watched.interruptStream()
                try await writer.write(["phone": "12"])
                try await writer.write(["phone": "123"])
                try await watched.wait { $0.version == opened + 3 }
                let resumed = Array(watched.streamLog.drop { $0 != "interrupted" })
                #expect(resumed.count == 3, "\(watched.streamLog)")
                #expect(resumed.dropFirst().allSatisfy { $0.hasSuffix(" \(opened + 2)") || $0.hasSuffix(" \(opened + 3)") })
                #expect(watched.input("phone", as: String.self) == "123")
                #expect(watched.snapshot == writer.snapshot)
            }
        }
    }

    @Test func versionsAreEachSeenOnceInOrder() async throws {
        try await ClientTestServer.with { server in
            let form = try await server.newSession().view("form")
            let following = Task { await form.follow() }
            defer { following.cancel() }
            try await within {
                try await form.wait { $0.connection == .live }
                let first = try #require(form.version)
                var versions = form.versions().makeAsyncIterator()
                try await form.write(["phone": "13800000000"])
                try await form.write(["password": "passw0rd"])
                var seen: [Int] = []
                while seen.count < 3, let next = await versions.next() {
                    seen.append(next.objectValue?["version"]?.intValue ?? -1)
                }
                #expect(seen == [first, first + 1, first + 2], "answers and stream events alike, none twice")
            }
        }
    }
}
