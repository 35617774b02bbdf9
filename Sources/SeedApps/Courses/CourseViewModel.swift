import Bindery
import BinderyUpstream
import Observation

/// A course's page (`courses/<id>`): the child view model the course list makes from a cell
/// (seed 001: the mother view model generates the child view model for the next screen).
@Observable
public final class CourseViewModel: ViewModel {
    /// The cell the page was made from.
    public let cell: CourseCellViewModel

    /// Creates the page of `cell`.
    public init(cell: CourseCellViewModel) {
        self.cell = cell
    }

    /// Outputs `name`, `lessonCount`, `detailTextString`; read-only.
    public static let declaration = ViewModelDeclaration<CourseViewModel>(
        "Course",
        summary: "One course's page, made by the course list from its cell: name, lesson count and detail text.",
        outputs: [
            .string("name") { $0.cell.name },
            .integer("lessonCount") { $0.cell.course.lessonCount },
            .string("detailTextString") { $0.cell.detailTextString },
        ]
    )
    /// The page has no commands.
    public let commandStates = CommandStates()
}
