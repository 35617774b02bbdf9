import Testing
@testable import BinderyStore

@Test func placeholder() {}
