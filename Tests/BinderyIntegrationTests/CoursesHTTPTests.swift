import BinderyRuntime
import BinderyUpstream
import Clocks
import Testing

@Suite("Course list over HTTP (seed 001): load, cells, select, the course page")
struct CoursesHTTPTests {
    @Test func loadShowsCellsAndSelectOpensTheCoursePage() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let loaded = try await client.request("POST", "/api/views/courses/commands/load", headers: ["Prefer": "wait=10"])
            #expect(loaded.status == 200)
            guard case .array(let courses)? = loaded.output("courses") else {
                Issue.record("no courses in \(loaded.text)")
                return
            }
            #expect((8...12).contains(courses.count))
            let cells = courses.compactMap(\.objectValue)
            #expect(cells.allSatisfy { $0["outputs"]?.objectValue.map { Set($0.keys) } == ["name", "detailTextString", "cellType"] })
            #expect(cells.allSatisfy { $0["path"]?.stringValue == "courses/\($0["id"]?.stringValue ?? "")" })
            let rows = cells.compactMap { $0["outputs"]?.objectValue }
            #expect(rows.contains { $0["detailTextString"] == "課程數量:35" && $0["cellType"] == "none" })
            #expect(rows.contains { $0["detailTextString"] == "多于30門課程" && $0["cellType"] == "detailDisclosureButton" })
            #expect(loaded.output("error") == .null)

            let cell = try await client.request("GET", "/api/views/courses/c03")
            #expect(cell.status == 200)
            #expect(cell.output("name") == "MVVM 與 ReactiveCocoa 實戰")
            let selected = try await client.request("POST", "/api/views/courses/commands/select", body: #"{"id": "c03"}"#)
            #expect(selected.status == 200)
            #expect(selected.json["navigate"] == "/courses/c03")
            let page = try await client.request("GET", "/api/views/courses/c03")
            #expect(page.json["outputs"] == ["name": "MVVM 與 ReactiveCocoa 實戰", "lessonCount": 36, "detailTextString": "多于30門課程"])
            #expect(page.json["inputs"] == [:])
            #expect(page.json["commands"] == [:])

            for body in [#"{"id": "c404"}"#, #"{"id": 3}"#, #"{}"#, #"{"name": "c01"}"#] {
                let refused = try await client.request("POST", "/api/views/courses/commands/select", body: body)
                #expect(refused.status == 422, "\(body) -> \(refused.status)")
            }
            let missing = try await client.request("GET", "/api/views/courses/c404")
            #expect(missing.status == 404)
            let tooDeep = try await client.request("GET", "/api/views/courses/c03/more")
            #expect(tooDeep.status == 404)
            let readOnly = try await client.request("PATCH", "/api/views/courses/c03", body: #"{"name": "x"}"#)
            #expect(readOnly.status == 405 || readOnly.status == 422, "\(readOnly.status)")
        }
    }

    @Test func aDeepLinkToACourseWorksInAFreshSession() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let page = try await client.request("GET", "/api/views/courses/c02")
            #expect(page.status == 200)
            #expect(page.json["outputs"] == ["name": "Swift 程式設計進階", "lessonCount": 35, "detailTextString": "課程數量:35"])
            let list = try await client.request("GET", "/api/views/courses")
            guard case .array(let courses)? = list.output("courses") else {
                Issue.record("the deep link did not load the list: \(list.text)")
                return
            }
            #expect(!courses.isEmpty)
        }
    }

    @Test func theCatalogueListsTheCoursesScreenAndItsPage() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let catalogue = try await client.request("GET", "/api/views")
            let views = catalogue.json["views"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let courses = try #require(views.first { $0["name"] == "courses" })
            #expect(courses["title"] == "Courses")
            #expect(courses["url"] == "/courses")
            let child = try #require(courses["children"]?.arrayValue?.first?.objectValue)
            #expect(child["name"] == "course")
            #expect(child["url"] == "/courses/{id}")
            #expect(child["titleMember"] == "name")
            #expect(child["viewModel"] == "Course")
        }
    }

    @Test func aFailedLoadIsA502AndClearsTheCourses() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession(as: .lilei)  // an administrator changes the upstream
            let loaded = try await client.request("POST", "/api/views/courses/commands/load", headers: ["Prefer": "wait=10"])
            #expect(loaded.status == 200)
            let patched = try await client.request(
                "PATCH", "/api/upstream", body: #"{"endpoints": {"courses": {"failureRate": 1}}}"#,
                contentType: "application/merge-patch+json"
            )
            #expect(patched.status == 200)
            #expect(patched.json["endpoints"]?.objectValue?["courses"]?.objectValue?["failureRate"] == 1)

            let failed = try await client.request("POST", "/api/views/courses/commands/load", headers: ["Prefer": "wait=10"])
            #expect(failed.status == 502)
            let list = try await client.request("GET", "/api/views/courses")
            #expect(list.output("courses") == .array([]))
            #expect(list.output("error")?.objectValue?["message"] == "Bad Network")
            let gone = try await client.request("GET", "/api/views/courses/c03")
            #expect(gone.status == 404)
        }
    }

    @Test func withoutWaitingTheAnswerIs202ThenTheCoursesArrive() async throws {
        let clock = TestClock()
        try await TestServer.with(upstream: UpstreamSettingsFixture.latency(1000), clock: clock) { server in
            let client = try await server.newSession()
            let started = try await client.request("POST", "/api/views/courses/commands/load")
            #expect(started.status == 202)
            let version = try #require(started.version)
            // Small steps and the longest wait: on a busy machine the work may need many steps of
            // real time before it runs, and the long-poll must not time out (304) before. Each step
            // of a TestClock yields to background-priority tasks, which a full parallel test run
            // starves for many seconds: the socket waits a minute before calling it a hang.
            let latest = try await clock.advancing(by: .milliseconds(250)) {
                try await client.request(
                    "GET", "/api/views/courses?after=\(version)", headers: ["Prefer": "wait=60"], timeout: .seconds(60)
                )
            }
            #expect(latest.json["commands"]?.objectValue?["load"]?.objectValue?["executing"] == false)
            #expect(latest.output("courses")?.arrayValue?.isEmpty == false)
        }
    }
}
