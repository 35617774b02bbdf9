import Bindery
import BinderyUpstream

/// What the course list keeps across restarts: the courses of its last successful load (the
/// cells are rebuilt from them, so course URLs keep working) and the last load's error.
extension CoursesViewModel {
    /// Saves and restores the last load and its error.
    static let persistence = PersistedState<CoursesViewModel>(
        save: { model in
            [
                "courses": model.lastLoad.map { .array($0.map(\.stored)) } ?? .null,
                "error": model.error?.json ?? .null,
            ]
        },
        restore: { model, state in
            let members = state.objectValue ?? [:]
            if let courses = members["courses"]?.arrayValue {
                model.install(courses.compactMap(Course.init(stored:)))
            }
            model.restoreError(members["error"].flatMap(ExecutionFailure.init(stored:)))
        }
    )
}

extension Course {
    /// The course as the list stores it.
    var stored: JSONValue {
        ["id": .string(id), "name": .string(name), "lessonCount": .int(lessonCount)]
    }

    /// A course from what ``stored`` wrote.
    init?(stored json: JSONValue) {
        guard let m = json.objectValue, let id = m["id"]?.stringValue, let name = m["name"]?.stringValue,
            let lessonCount = m["lessonCount"]?.intValue
        else { return nil }
        self.init(id: id, name: name, lessonCount: lessonCount)
    }
}
