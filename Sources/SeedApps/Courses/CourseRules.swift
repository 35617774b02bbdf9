/// The rules of the course list (seed 001's `MarshalViewModel`), kept apart from the wiring.
public enum CourseRules {
    /// The lesson count above which a course shows the seed's "more than" text and a disclosure.
    public static let manyLessons = 35

    /// The cell's detail text: `"多于30門課程"` above 35 lessons (the seed's text, though it reads
    /// "more than 30"), else `"課程數量:<n>"`.
    public static func detailText(lessonCount: Int) -> String {
        lessonCount > manyLessons ? "多于30門課程" : "課程數量:\(lessonCount)"
    }

    /// The cell's accessory: a detail disclosure button above 35 lessons, else none.
    public static func cellType(lessonCount: Int) -> CourseCellType {
        lessonCount > manyLessons ? .detailDisclosureButton : .none
    }

    /// The view-model path of a course's page: `courses/<id>` (the `{id}` route of `courses`).
    public static func coursePath(id: String) -> String {
        "courses/\(id)"
    }

    /// The page a selected course navigates to: `/courses/<id>`.
    public static func destination(courseID id: String) -> String {
        "/" + coursePath(id: id)
    }
}

/// A course cell's accessory (seed 001's `UITableViewCellAccessoryType`).
public enum CourseCellType: String, Sendable, Hashable, CaseIterable {
    /// No accessory (`UITableViewCellAccessoryNone`).
    case none
    /// A detail disclosure button (`UITableViewCellAccessoryDetailDisclosureButton`).
    case detailDisclosureButton
}
