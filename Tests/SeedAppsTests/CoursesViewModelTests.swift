import SeedApps
import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import BinderyTesting
import Testing

/// Seed 001's `HomeViewController.getData`: the list fetches the courses and keeps one cell view
/// model per course; a cell's page is made by the list. Every step asserts the whole snapshot.
@MainActor
@Suite("Course list view model (seed 001)", .timeLimit(.minutes(1)))
struct CoursesViewModelTests {
    /// The load command's state: idle, running, or failed with `error`.
    static func load(executing: Bool = false, error: JSONValue = nil) -> SnapshotState.CommandState {
        .init(enabled: !executing, executing: executing, error: error, policy: "serial")
    }

    /// Starts `load` on `list`, lets the call finish after one second and asserts the change.
    func load(
        _ list: ViewModelTester<CoursesViewModel>, on clock: CountingClock,
        sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void
    ) async throws {
        let started = clock.sleepsStarted
        try list.execute("load", sourceLocation: sourceLocation) { $0.commands["load"] = Self.load(executing: true) }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        await list.settle(sourceLocation: sourceLocation, update)
    }

    @Test func startsEmptyAndLoadsOnTheTestClock() async throws {
        let (upstream, clock) = makeTestUpstream()
        let courses = try await upstream.peekCourses(clock)
        let list = ViewModelTester(CoursesViewModel(upstream: upstream)) { state in
            #expect(state.inputs.isEmpty)
            #expect(state.outputs == ["courses": [], "error": nil])
            #expect(state.commands == ["load": Self.load(), "select": Self.load()])
        }

        try list.execute("load") { $0.commands["load"] = Self.load(executing: true) }
        await clock.waitForSleeps(2)
        await clock.advance(by: .milliseconds(999))
        await list.settle { _ in }
        await clock.advance(by: .milliseconds(1))
        await list.settle {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }

        #expect(list.state.outputs["courses"]?.arrayValue?.count == courses.count)
        list.finish()
    }

    @Test func cellsFollowTheSeedsRule() async throws {
        let (upstream, clock) = makeTestUpstream()
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        let courses = try await upstream.peekCourses(clock)
        try await load(list, on: clock) {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }

        let cells = list.model.cells
        let thirtyFive = try #require(cells.first { $0.course.lessonCount == 35 })
        let thirtySix = try #require(cells.first { $0.course.lessonCount == 36 })
        #expect(thirtyFive.outputs["detailTextString"] == "課程數量:35")
        #expect(thirtyFive.outputs["cellType"] == "none")
        #expect(thirtySix.outputs["detailTextString"] == "多于30門課程")
        #expect(thirtySix.outputs["cellType"] == "detailDisclosureButton")
        list.finish()
    }

    @Test func aFailedLoadClearsTheCoursesAndShowsTheError() async throws {
        let (upstream, clock) = makeTestUpstream()
        let courses = try await upstream.peekCourses(clock)
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        try await load(list, on: clock) {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }

        upstream.update(UpstreamSettings(seed: 42, endpoints: [.courses: EndpointSettings(failureRate: 1)]))
        try await load(list, on: clock) {
            $0.commands["load"] = Self.load(error: badNetwork)
            $0.outputs["courses"] = []
            $0.outputs["error"] = badNetwork
        }

        list.refuse("select", ["id": "c01"], with: .invalidArgument(command: "select", reason: "no course has id \"c01\""))
        #expect(list.model.child(at: ["c01"]) == nil)

        upstream.update(UpstreamSettings(seed: 42, endpoints: [:]))
        let started = clock.sleepsStarted
        try list.execute("load") { $0.commands["load"] = Self.load(executing: true) }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        await list.settle {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
            $0.outputs["error"] = .null
        }
        list.finish()
    }

    @Test func malformedJSONShowsErrorJSONData() async throws {
        let (upstream, clock) = makeTestUpstream([.courses: EndpointSettings(malformedRate: 1)])
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        let failure: JSONValue = ["message": "Error JSON Data", "code": 502, "origin": "upstream"]

        try await load(list, on: clock) {
            $0.commands["load"] = Self.load(error: failure)
            $0.outputs["error"] = failure
        }
        list.finish()
    }

    @Test func aSecondLoadWhileOneRunsIsRefused() async throws {
        let (upstream, clock) = makeTestUpstream()
        let courses = try await upstream.peekCourses(clock)
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        try list.execute("load") { $0.commands["load"] = Self.load(executing: true) }
        await clock.waitForSleeps(2)

        list.refuse("load", with: .commandExecuting(name: "load"))

        await clock.advance(by: .seconds(1))
        await list.settle {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }
        list.finish()
    }

    @Test func selectNavigatesToThePageTheListMakesFromTheCell() async throws {
        let (upstream, clock) = makeTestUpstream()
        let courses = try await upstream.peekCourses(clock)
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        try await load(list, on: clock) {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }

        let outcome = try list.execute("select", ["id": "c03"]) { _ in }

        #expect(try outcome?.get() == CommandResult(navigate: "/courses/c03"))
        let page = try #require(list.model.child(at: ["c03"]) as? CourseViewModel)
        #expect(page.cell === list.model.cell(id: "c03"))
        #expect(list.model.child(at: ["c03"]) === page)
        #expect(page.outputs == ["name": "MVVM 與 ReactiveCocoa 實戰", "lessonCount": 36, "detailTextString": "多于30門課程"])
        #expect(list.model.child(at: ["c404"]) == nil)
        #expect(list.model.child(at: ["c03", "more"]) == nil)
        list.finish()
    }

    @Test(arguments: [nil, JSONValue.null, [:], ["id": 3], ["id": "c404"], ["name": "c01"], "c01"])
    func selectRefusesArgumentsThatNameNoCourse(argument: JSONValue?) async throws {
        let (upstream, clock) = makeTestUpstream()
        let courses = try await upstream.peekCourses(clock)
        let list = ViewModelTester(CoursesViewModel(upstream: upstream))
        try await load(list, on: clock) {
            $0.commands["load"] = Self.load()
            $0.outputs["courses"] = coursesOutput(courses)
        }

        do {
            _ = try list.model.startCommand("select", argument: argument)
            Issue.record("select accepted \(String(describing: argument))")
        } catch {
            #expect(isInvalidArgument(error, command: "select"))
        }
        await list.settle { _ in }
        list.finish()
    }

    @Test func aDeepLinkInAFreshListLoadsOnce() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = CoursesViewModel(upstream: upstream)
        #expect(model.child(at: ["c02"]) == nil)

        let prepare = Task { await model.prepareChild(at: ["c02"]) }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        await prepare.value

        let page = try #require(model.child(at: ["c02"]) as? CourseViewModel)
        #expect(page.outputs["detailTextString"] == "課程數量:35")
        await model.prepareChild(at: ["c05"])
        #expect(clock.sleepsStarted == 1)
    }

    @Test func theLastLoadSurvivesARestart() async throws {
        let (upstream, clock) = makeTestUpstream()
        let model = CoursesViewModel(upstream: upstream)
        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        _ = try await run.value

        let restored = CoursesViewModel(upstream: upstream)
        restored.restorePersistedState(model.persistedState)

        #expect(restored.outputs == model.outputs)
        #expect(restored.child(at: ["c03"]) is CourseViewModel)
        #expect(clock.sleepsStarted == 1)
    }

    @Test func aFailedLoadsErrorSurvivesARestart() async throws {
        let (upstream, clock) = makeTestUpstream([.courses: EndpointSettings(failureRate: 1)])
        let model = CoursesViewModel(upstream: upstream)
        let run = Task { try await model.execute("load") }
        await clock.waitForSleeps(1)
        await clock.advance(by: .seconds(1))
        _ = try await run.value

        let restored = CoursesViewModel(upstream: upstream)
        restored.restorePersistedState(model.persistedState)

        #expect(restored.outputs == ["courses": [], "error": badNetwork])
    }
}

/// The `courses` output the list shows for `courses`: each cell's id, path and snapshot.
func coursesOutput(_ courses: [Course]) -> JSONValue {
    .array(
        courses.map { course in
            [
                "id": .string(course.id), "path": .string("courses/\(course.id)"), "inputs": [:], "commands": [:],
                "outputs": [
                    "name": .string(course.name),
                    "detailTextString": .string(CourseRules.detailText(lessonCount: course.lessonCount)),
                    "cellType": .string(course.lessonCount > 35 ? "detailDisclosureButton" : "none"),
                ],
            ]
        })
}

extension UpstreamProvider {
    /// The courses as the upstream serves them, read on a clock that is advanced for it.
    func peekCourses(_ clock: CountingClock) async throws -> [Course] {
        let started = clock.sleepsStarted
        let task = Task { try await self.courses() }
        await clock.waitForSleeps(started + 1)
        await clock.advance(by: .seconds(1))
        return try await task.value
    }
}
