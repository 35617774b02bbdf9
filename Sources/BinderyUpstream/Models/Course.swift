/// A course from the courses endpoint: seed 001's `MarshalModel` (`name`, `lessonCount`), with
/// the upstream's stable id so a course has its own page.
public struct Course: Sendable, Equatable, Hashable, Identifiable, Decodable {
    /// The upstream's stable id of the course (`"c01"`).
    public var id: String
    /// The course's name.
    public var name: String
    /// How many lessons the course has.
    public var lessonCount: Int

    /// Creates a course.
    public init(id: String, name: String, lessonCount: Int) {
        self.id = id
        self.name = name
        self.lessonCount = lessonCount
    }
}
