import Bindery
import BinderyUpstream
import Observation

/// One cell of the course list (seed 001's `MarshalViewModel`): made from a course once, then
/// read-only: `name`, `detailTextString` and `cellType`.
@Observable
public final class CourseCellViewModel: ViewModel {
    /// The course the cell shows (the seed's injected `MarshalModel`).
    public let course: Course

    /// Creates the cell of `course` (the seed's `initWithModel:`).
    public init(course: Course) {
        self.course = course
    }

    /// The course's id, also its path segment.
    public var id: String { course.id }
    /// The course's name.
    public var name: String { course.name }
    /// `"多于30門課程"` above 35 lessons, else `"課程數量:<n>"`.
    public var detailTextString: String { CourseRules.detailText(lessonCount: course.lessonCount) }
    /// A detail disclosure button above 35 lessons, else none.
    public var cellType: CourseCellType { CourseRules.cellType(lessonCount: course.lessonCount) }

    /// Outputs `name`, `detailTextString`, `cellType`; no inputs, no commands.
    public static let declaration = ViewModelDeclaration<CourseCellViewModel>(
        "CourseCell",
        summary: "One course of the course list (seed 001's MarshalViewModel): read-only cell values.",
        outputs: [
            .string("name") { $0.name },
            .string("detailTextString") { $0.detailTextString },
            .enumeration("cellType", CourseCellType.allCases.map(\.rawValue)) { $0.cellType.rawValue },
        ]
    )
    /// Cells have no commands.
    public let commandStates = CommandStates()
}
