import Bindery
import Observation

/// TodoMVC for the signed-in user: their todo list (``TodoList``, kept with their data and live in
/// every session of theirs), shown through the filter the page's hash names (`#/active`).
@Observable
public final class TodosViewModel: ViewModel {
    /// Which todos the list shows: the page's `#/` (all), `#/active` or `#/completed`.
    public enum Filter: String, CaseIterable, Sendable { case all, active, completed }

    public let commandStates = CommandStates()
    /// What the list shows: the session's, kept with it.
    public var filter = Filter.all
    @ObservationIgnored let lists: UserRecords<TodoList>
    @ObservationIgnored let viewer: Viewer

    /// The list of `viewer`'s user among every user's `lists`.
    public init(lists: UserRecords<TodoList>, viewer: Viewer) {
        self.lists = lists
        self.viewer = viewer
    }

    /// Every todo of the user's, oldest first.
    var todos: [Todo] { lists.of(viewer)?.record(id: TodoList.mine)?.todos ?? [] }
    var shown: [Todo] { todos.filter { filter == .all || $0.completed == (filter == .completed) } }
    var remaining: Int { todos.count { !$0.completed } }

    /// A command that commits `edit`, given its argument's members, to the user's list (made by
    /// their first change).
    static func command(
        _ name: String, _ summary: String, _ members: [String: Schema] = [:],
        enabled: @escaping @Sendable (TodosViewModel) -> Bool = { _ in true },
        _ edit: @escaping @Sendable (inout TodoList, [String: JSONValue]) -> Void
    ) -> CommandDeclaration<TodosViewModel> {
        .deferred(name, summary: summary, argument: members.isEmpty ? nil : .object(members), policy: .concurrent, enabled: enabled) {
            model, argument throws(ViewModelError) in
            guard let mine = model.lists.of(model.viewer) else { throw .signInRequired }
            let change: @Sendable (inout TodoList) -> Void = { edit(&$0, argument?.objectValue ?? [:]) }
            return {
                do throws(SharedRecordError) {
                    try await mine.update(id: TodoList.mine, change)
                } catch .notFound {
                    do throws(SharedRecordError) {
                        _ = try await mine.add { _ in
                            var list = TodoList(); change(&list); return list
                        }
                    } catch .conflict {
                        try await mine.update(id: TodoList.mine, change)  // another session made it meanwhile
                    }
                }
                return .none
            }
        }
    }

    static let title = Schema.string(maxLength: 500)
    static let item = Schema.named("Todo", .object(["id": .text, "title": .text, "completed": .boolean]))
    static let link = Schema.named("TodoFilter", .object(["name": .text, "href": .text, "selected": .boolean]))

    public static let declaration = ViewModelDeclaration<TodosViewModel>(
        "Todos",
        summary: "Your todos, on every device you sign in on.",
        inputs: [.enumeration("filter", \.filter)],
        outputs: [
            .init("items", schema: .array(item)) { model in
                .array(model.shown.map { ["id": .string($0.id), "title": .string($0.title), "completed": .bool($0.completed)] })
            },
            .boolean("hasTodos") { !$0.todos.isEmpty },
            .boolean("allCompleted") { !$0.todos.isEmpty && $0.remaining == 0 },
            .boolean("hasCompleted") { $0.remaining < $0.todos.count },
            .integer("remaining") { $0.remaining },
            .string("itemWord") { $0.remaining == 1 ? "item" : "items" },
            .init("filters", schema: .array(link)) { model in
                .array(
                    Filter.allCases.map { filter in
                        let href = "#/" + (filter == .all ? "" : filter.rawValue)
                        return ["name": .string(filter.rawValue.capitalized), "href": .string(href), "selected": .bool(model.filter == filter)]
                    })
            },
        ],
        commands: [
            command("add", "Adds a todo titled `title`, trimmed; a blank title adds nothing.", ["title": title]) {
                list, argument in list.add(argument["title"]?.stringValue ?? "")
            },
            command("toggle", "Marks the todo `id` completed or not.", ["id": .text, "completed": .boolean]) { list, argument in
                for index in list.todos.indices where list.todos[index].id == argument["id"]?.stringValue {
                    list.todos[index].completed = argument["completed"] == true
                }
            },
            command("toggleAll", "Marks every todo completed or not.", ["completed": .boolean]) { list, argument in
                for index in list.todos.indices { list.todos[index].completed = argument["completed"] == true }
            },
            command("rename", "Retitles the todo `id`, trimmed; an empty title removes it.", ["id": .text, "title": title]) {
                list, argument in list.rename(argument["id"]?.stringValue ?? "", to: argument["title"]?.stringValue ?? "")
            },
            command("remove", "Removes the todo `id`.", ["id": .text]) { list, argument in
                list.todos.removeAll { $0.id == argument["id"]?.stringValue }
            },
            command("clearCompleted", "Removes the completed todos.", enabled: { $0.remaining < $0.todos.count }) { list, _ in
                list.todos.removeAll(where: \.completed)
            },
        ]
    )
    .readable(by: .signedIn)
}

extension TodosViewModel {
    /// The app: the `todos` screen over every user's lists, signing people in with `accounts`.
    public static func app(accounts: Accounts, lists: UserRecords<TodoList> = UserRecords("todos")) -> BinderyApp {
        let screen = Screen("todos", title: "Todos") { viewer in TodosViewModel(lists: lists, viewer: viewer) }
        return BinderyApp(screens: [screen], sharedModels: [lists], users: accounts.users)
    }
}
