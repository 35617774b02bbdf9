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

}

/// A course cell's accessory (seed 001's `UITableViewCellAccessoryType`).
public enum CourseCellType: String, Sendable, Hashable, CaseIterable {
    /// No accessory (`UITableViewCellAccessoryNone`).
    case none
    /// A detail disclosure button (`UITableViewCellAccessoryDetailDisclosureButton`).
    case detailDisclosureButton
}
