import BinderyTesting
import Testing
import Todos

@MainActor
struct TodosTests {
    let ada = Viewer(user: User(id: "ada", name: "ada"))
    let lists = UserRecords<TodoList>.inMemory("todos")

    /// A tester of `viewer`'s list among `lists`.
    func todos(of viewer: Viewer? = nil) -> ViewModelTester<TodosViewModel> {
        let viewer = viewer ?? ada
        return ViewModelTester(TodosViewModel(lists: lists, viewer: viewer), viewer: viewer)
    }

    /// Runs the deferred command `name` to its end and asserts what it changed.
    func run(
        _ todos: ViewModelTester<TodosViewModel>, _ name: String, _ argument: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout SnapshotState) -> Void
    ) async throws {
        try todos.execute(name, argument, sourceLocation: sourceLocation) { $0.commands[name]?.executing = true }
        await todos.settle(sourceLocation: sourceLocation) {
            update(&$0)
            $0.commands[name]?.executing = false
        }
    }

    /// Adds `titles` (each added as it is typed) to an empty list.
    func add(_ titles: [String], to todos: ViewModelTester<TodosViewModel>) async throws {
        for (number, title) in titles.enumerated() {
            try await run(todos, "add", ["title": .string("  \(title) ")]) {
                if number == 0 { $0.outputs["hasTodos"] = true }
                $0.outputs["items"]?.append(["id": .string("t\(number + 1)"), "title": .string(title), "completed": false])
                $0.outputs["remaining"] = .int(number + 1)
                $0.outputs["itemWord"] = number == 0 ? "item" : "items"
            }
        }
    }

    @Test func startsEmpty() {
        let todos = todos()
        #expect(todos.state.outputs["items"] == [])
        #expect(todos.state.outputs["hasTodos"] == false)
        #expect(todos.state.outputs["remaining"] == 0)
        #expect(todos.state.outputs["itemWord"] == "items")
        #expect(todos.state.commands["clearCompleted"]?.enabled == false)
        #expect(
            todos.state.outputs["filters"] == [
                ["name": "All", "href": "#/", "selected": true],
                ["name": "Active", "href": "#/active", "selected": false],
                ["name": "Completed", "href": "#/completed", "selected": false],
            ])
        todos.finish()
    }

    @Test func addsTrimmedTitlesAndIgnoresBlankOnes() async throws {
        let todos = todos()
        try await add(["Buy milk", "Walk the dog"], to: todos)
        #expect(todos.state.outputs["items"]?[0]?["title"] == "Buy milk")
        try await run(todos, "add", ["title": "   "]) { _ in }
        try await run(todos, "add", ["title": ""]) { _ in }
        todos.finish()
    }

    @Test func togglesOneAndAllAndCounts() async throws {
        let todos = todos()
        try await add(["a", "b"], to: todos)
        try await run(todos, "toggle", ["id": "t1", "completed": true]) {
            $0.outputs["items"]?[0]?["completed"] = true
            $0.outputs["remaining"] = 1
            $0.outputs["itemWord"] = "item"
            $0.outputs["hasCompleted"] = true
            $0.commands["clearCompleted"]?.enabled = true
        }
        try await run(todos, "toggleAll", ["completed": true]) {
            $0.outputs["items"]?[1]?["completed"] = true
            $0.outputs["remaining"] = 0
            $0.outputs["itemWord"] = "items"
            $0.outputs["allCompleted"] = true
        }
        try await run(todos, "toggleAll", ["completed": false]) {
            $0.outputs["items"]?[0]?["completed"] = false
            $0.outputs["items"]?[1]?["completed"] = false
            $0.outputs["remaining"] = 2
            $0.outputs["allCompleted"] = false
            $0.outputs["hasCompleted"] = false
            $0.commands["clearCompleted"]?.enabled = false
        }
        todos.finish()
    }

    @Test func editsTrimmedAndRemovesAnEmptiedTodo() async throws {
        let todos = todos()
        try await add(["a", "b"], to: todos)
        try await run(todos, "rename", ["id": "t2", "title": "  better b  "]) { $0.outputs["items"]?[1]?["title"] = "better b" }
        try await run(todos, "rename", ["id": "t1", "title": "   "]) {
            $0.outputs["items"]?[0] = nil
            $0.outputs["remaining"] = 1
            $0.outputs["itemWord"] = "item"
        }
        try await run(todos, "remove", ["id": "t2"]) {
            $0.outputs["items"]?[0] = nil
            $0.outputs["remaining"] = 0
            $0.outputs["itemWord"] = "items"
            $0.outputs["hasTodos"] = false
        }
        todos.finish()
    }

    @Test func clearsTheCompletedOnes() async throws {
        let todos = todos()
        try await add(["a", "b", "c"], to: todos)
        try await run(todos, "toggleAll", ["completed": true]) {
            for index in 0..<3 { $0.outputs["items"]?[index]?["completed"] = true }
            $0.outputs["remaining"] = 0
            $0.outputs["allCompleted"] = true
            $0.outputs["hasCompleted"] = true
            $0.commands["clearCompleted"]?.enabled = true
        }
        try await run(todos, "toggle", ["id": "t2", "completed": false]) {
            $0.outputs["items"]?[1]?["completed"] = false
            $0.outputs["remaining"] = 1
            $0.outputs["itemWord"] = "item"
            $0.outputs["allCompleted"] = false
        }
        try await run(todos, "clearCompleted") {
            $0.outputs["items"] = [["id": "t2", "title": "b", "completed": false]]
            $0.outputs["hasCompleted"] = false
            $0.commands["clearCompleted"]?.enabled = false
        }
        todos.finish()
    }

    @Test func filtersByTheHashAndKeepsTheFilterAcrossARestart() async throws {
        let todos = todos()
        try await add(["a", "b"], to: todos)
        try await run(todos, "toggle", ["id": "t1", "completed": true]) {
            $0.outputs["items"]?[0]?["completed"] = true
            $0.outputs["remaining"] = 1
            $0.outputs["itemWord"] = "item"
            $0.outputs["hasCompleted"] = true
            $0.commands["clearCompleted"]?.enabled = true
        }
        try await todos.write(["filter": "active"]) {
            $0.inputs["filter"] = "active"
            $0.outputs["items"]?[0] = nil
            $0.outputs["filters"]?[0]?["selected"] = false
            $0.outputs["filters"]?[1]?["selected"] = true
        }
        try await todos.write(["filter": "completed"]) {
            $0.inputs["filter"] = "completed"
            $0.outputs["items"] = [["id": "t1", "title": "a", "completed": true]]
            $0.outputs["filters"]?[1]?["selected"] = false
            $0.outputs["filters"]?[2]?["selected"] = true
        }
        // Unchecked while the completed ones are shown: it leaves the list at once.
        try await run(todos, "toggle", ["id": "t1", "completed": false]) {
            $0.outputs["items"] = []
            $0.outputs["remaining"] = 2
            $0.outputs["itemWord"] = "items"
            $0.outputs["hasCompleted"] = false
            $0.commands["clearCompleted"]?.enabled = false
        }
        await todos.refuseWrite(["filter": "done"], with: .invalidInput(name: "filter", reason: "must be one of all, active, completed"))

        #expect(todos.persistedState == ["filter": "completed"])
        let restarted = try ViewModelTester(TodosViewModel(lists: lists, viewer: ada), restoring: todos.persistedState, viewer: ada)
        #expect(restarted.state == todos.state)
        todos.finish()
    }

    @Test func everySessionOfTheUserFollowsAndNoOtherUserSeesIt() async throws {
        let laptop = todos()
        let phone = todos(of: Viewer(user: User(id: "ada", name: "ada")))
        let grace = todos(of: Viewer(user: User(id: "grace", name: "grace")))
        try await add(["a"], to: laptop)
        await phone.settle {
            $0.outputs["items"] = [["id": "t1", "title": "a", "completed": false]]
            $0.outputs["hasTodos"] = true
            $0.outputs["remaining"] = 1
            $0.outputs["itemWord"] = "item"
        }
        await grace.settle { _ in }
        #expect(grace.state.outputs["items"] == [])
        laptop.finish()
        phone.finish()
        grace.finish()
    }

    @Test func anAnonymousViewerCannotChangeAList() {
        let todos = todos(of: Viewer())
        todos.refuse("add", ["title": "a"], with: .signInRequired)
        todos.finish()
    }
}
