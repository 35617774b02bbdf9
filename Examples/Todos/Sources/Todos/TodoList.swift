import Bindery
import Foundation

/// One todo, with TodoMVC's keys (the list's outputs show them; the app alone makes and edits them).
public struct Todo: Codable, Sendable, Hashable {
    var id: String
    var title: String
    var completed = false
}

/// A user's todo list: one record of theirs (``UserRecords``), so that a change of several todos
/// (toggle all, clear completed) is one commit, seen whole by every session of theirs.
public struct TodoList: SharedRecord {
    /// The id of each user's one list.
    public static let mine = "list"
    public var id = TodoList.mine
    public var version = 1
    /// Oldest first.
    public var todos: [Todo] = []
    /// How many todos were ever added: the next one is `t<added + 1>`.
    public var added = 0

    /// Appends a todo titled `title`, trimmed; a blank title adds nothing.
    mutating func add(_ title: String) {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return }
        added += 1
        todos.append(Todo(id: "t\(added)", title: title))
    }

    /// Retitles the todo `id` with `title`, trimmed; an empty title removes it.
    mutating func rename(_ id: String, to title: String) {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty { todos.removeAll { $0.id == id } }
        for index in todos.indices where todos[index].id == id { todos[index].title = title }
    }
}
