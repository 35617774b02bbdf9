import SeedApps
import BinderyRuntime
import BinderyUpstream
import Testing

/// Seed 001's `MarshalViewModel`: a model is injected, and the cell reads `name`,
/// `detailTextString` and `cellType`, derived once and read-only.
@MainActor
@Suite("Course cells (seed 001: MarshalViewModel)")
struct CourseCellTests {
    /// A cell made from a course with `lessonCount` lessons (the seed's `initWithModel:`).
    func cell(lessonCount: Int) -> CourseCellViewModel {
        CourseCellViewModel(course: Course(id: "c99", name: "Swift 程式設計", lessonCount: lessonCount))
    }

    @Test func thirtyFiveLessonsShowTheCountAndNoAccessory() {
        let viewModel = cell(lessonCount: 35)
        #expect(viewModel.name == "Swift 程式設計")
        #expect(viewModel.detailTextString == "課程數量:35")
        #expect(viewModel.cellType == .none)
    }

    @Test func thirtySixLessonsShowMoreThanThirtyAndADisclosureButton() {
        let viewModel = cell(lessonCount: 36)
        #expect(viewModel.name == "Swift 程式設計")
        #expect(viewModel.detailTextString == "多于30門課程")
        #expect(viewModel.cellType == .detailDisclosureButton)
    }

    @Test(arguments: [
        (0, "課程數量:0", "none"), (1, "課程數量:1", "none"), (30, "課程數量:30", "none"),
        (31, "課程數量:31", "none"), (34, "課程數量:34", "none"), (35, "課程數量:35", "none"),
        (36, "多于30門課程", "detailDisclosureButton"), (42, "多于30門課程", "detailDisclosureButton"),
        (1000, "多于30門課程", "detailDisclosureButton"),
    ])
    func theRuleSplitsAfterThirtyFive(lessonCount: Int, detailText: String, cellType: String) {
        #expect(CourseRules.detailText(lessonCount: lessonCount) == detailText)
        #expect(CourseRules.cellType(lessonCount: lessonCount).rawValue == cellType)
        #expect(
            cell(lessonCount: lessonCount).outputs == [
                "name": "Swift 程式設計", "detailTextString": .string(detailText), "cellType": .string(cellType),
            ])
    }

    @Test func theCellIsReadOnly() async {
        let viewModel = cell(lessonCount: 36)
        #expect(viewModel.inputValues.isEmpty)
        #expect(CourseCellViewModel.declaration.commands.isEmpty)
        await #expect(throws: ViewModelError.unknownInput(name: "name")) { try await viewModel.write(["name": "x"]) }
    }

    @Test func theCoursePageShowsNameLessonCountAndTheSameDetailText() {
        let many = CourseViewModel(cell: cell(lessonCount: 48))
        let few = CourseViewModel(cell: cell(lessonCount: 12))
        #expect(many.outputs == ["name": "Swift 程式設計", "lessonCount": 48, "detailTextString": "多于30門課程"])
        #expect(few.outputs == ["name": "Swift 程式設計", "lessonCount": 12, "detailTextString": "課程數量:12"])
        #expect(few.inputValues.isEmpty)
    }

    @Test func aCoursesPathAndPageComeFromTheListsDeclaredRoute() {
        let list = CoursesViewModel(upstream: UpstreamProvider(settings: .seedDefaults))
        #expect(list.path(to: "course", "c03") == "courses/c03")
        #expect(list.page(to: "course", "c03") == "/courses/c03")
    }
}
