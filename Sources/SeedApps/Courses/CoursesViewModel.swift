import Bindery
import BinderyUpstream
import Observation

/// The course list of seed 001 (`HomeViewController` with its array of `MarshalViewModel`s):
/// courses fetched by the `load` command, one cell view model per course.
///
/// The cells are built once per successful load and stay the same objects until the next one.
/// Selecting a course answers its page, `courses/<id>`, whose view model this list makes from
/// the cell (the seed's mother view model generating the child view model) and keeps until
/// the next load. Loading is not started by activation: the client executes `load`.
@Observable
public final class CoursesViewModel: ViewModel {
    /// The cells of the last successful load, in the upstream's order.
    public private(set) var cells: [CourseCellViewModel] = []
    /// The failure of the last load; nil once a load starts.
    public private(set) var error: ExecutionFailure?

    /// The live state of `load` and `select`.
    public let commandStates = CommandStates()

    @ObservationIgnored private let upstream: UpstreamProvider
    @ObservationIgnored private var cellsByID: [String: CourseCellViewModel] = [:]
    @ObservationIgnored private var pages: [String: CourseViewModel] = [:]
    /// The courses of the last successful load, kept so a restart can rebuild the cells.
    @ObservationIgnored private(set) var lastLoad: [Course]?

    /// Creates an empty course list loading from `upstream`.
    public init(upstream: UpstreamProvider) {
        self.upstream = upstream
    }

    /// Outputs `courses` (the cells) and `error`; commands `load` and `select`; child route
    /// `{id}` (the page `courses/<id>`).
    public static let declaration = ViewModelDeclaration<CoursesViewModel>(
        "Courses",
        summary: "The course list (seed 001): courses from the upstream, each cell with its detail text and accessory.",
        outputs: [
            .children("courses", of: CourseCellViewModel.declaration.schema, route: "course") { model in
                model.cells.map { (id: $0.id, viewModel: $0) }
            },
            .failure("error") { $0.error },
        ],
        commands: [
            .deferred(
                "load", summary: "Fetches the courses; on failure the courses are cleared and `error` is set.",
                prepare: { model, _ in
                    {
                        try await model.reload(); return .none
                    }
                }
            ),
            .immediate(
                "select", summary: "Opens a course: answers its page.",
                argument: SelectCourse.self, navigates: true,
                run: { model, argument throws(ViewModelError) in
                    let cell = try model.cell(selectedBy: argument)
                    return CommandResult(navigate: model.page(to: "course", cell.id))
                }
            ),
        ],
        children: [
            ChildRoute(
                "course", title: "Course", titleMember: "name", segment: "", parameter: "id",
                parameterSchema: .text, child: CourseViewModel.declaration.schema,
                resolve: { model, id in model.page(id: id) },
                prepare: { model in await model.loadIfEmpty() }
            )
        ],
        persists: persistence
    )

    /// The cell of the course `id`, if the last load produced one.
    public func cell(id: String) -> CourseCellViewModel? {
        cellsByID[id]
    }

    /// The page of the course `id`, made from its cell on first use and kept until the next load.
    public func page(id: String) -> CourseViewModel? {
        if let page = pages[id] { return page }
        guard let cell = cellsByID[id] else { return nil }
        let page = CourseViewModel(cell: cell)
        pages[id] = page
        return page
    }

    /// Runs `load` when there is no course yet, so that a shared course URL works in a new
    /// session. While a load runs, nothing more is started; a failed load leaves no courses.
    func loadIfEmpty(isolation: isolated (any Actor)? = #isolation) async {
        guard cells.isEmpty else { return }
        _ = try? await execute("load", isolation: isolation)
    }

    /// Fetches the courses and replaces the cells; clears them on failure. A cancelled load
    /// changes neither the cells nor `error`.
    private func reload() async throws {
        let previousError = error
        error = nil
        let courses: [Course]
        do {
            courses = try await upstream.courses()
        } catch {
            if Task.isCancelled || error.isCancellation {
                self.error = previousError
                throw error
            }
            install([])
            lastLoad = nil
            self.error = ExecutionFailure(error)
            throw error
        }
        if Task.isCancelled {
            self.error = previousError
            throw CancellationError()
        }
        install(courses)
    }

    /// Builds the cells of a load, keeping the first course of any repeated id.
    func install(_ courses: [Course]) {
        lastLoad = courses
        var byID: [String: CourseCellViewModel] = [:]
        var unique: [CourseCellViewModel] = []
        for course in courses where byID[course.id] == nil {
            let cell = CourseCellViewModel(course: course)
            byID[course.id] = cell
            unique.append(cell)
        }
        cellsByID = byID
        pages = [:]
        cells = unique
    }

    /// Puts back the error of the last load (after a restart).
    func restoreError(_ failure: ExecutionFailure?) {
        error = failure
    }

    /// The cell named by a `select` argument, or the reason it names none.
    private func cell(selectedBy argument: SelectCourse) throws(ViewModelError) -> CourseCellViewModel {
        guard let cell = cellsByID[argument.id] else {
            throw .invalidArgument(command: "select", reason: "no course has id \"\(argument.id)\"")
        }
        return cell
    }

    /// `select`'s argument: the course's id.
    struct SelectCourse: CommandArgument {
        let id: String
        static let schema = Schema.named("SelectCourseArgument", .object(["id": .text]))
    }
}
