import Foundation
import Synchronization
import Testing

@testable import BinderyUpstream

@Suite("Decoded responses are shared while the body stays the same")
struct DecodedResponsesTests {
    private struct Counted: Error {}

    @Test("The same body decodes once; another body, or another request, decodes again")
    func sharesModelsOfTheSameBody() throws {
        let responses = DecodedResponses()
        let decodes = Mutex(0)
        func models(_ text: String, for request: UpstreamRequest) throws -> [String] {
            try responses.models(of: Data(text.utf8), for: request) { body in
                decodes.withLock { $0 += 1 }
                return try JSONDecoder().decode([String].self, from: body)
            }
        }
        #expect(try models(#"["a","b"]"#, for: .travel) == ["a", "b"])
        #expect(try models(#"["a","b"]"#, for: .travel) == ["a", "b"])
        #expect(decodes.withLock { $0 } == 1)
        #expect(try models(#"["c"]"#, for: .travel) == ["c"])
        #expect(try models(#"["c"]"#, for: .hotel) == ["c"])
        #expect(decodes.withLock { $0 } == 3)
    }

    @Test("A body that fails to decode is not remembered")
    func failuresAreNotKept() {
        let responses = DecodedResponses()
        for _ in 0..<2 {
            #expect(throws: Counted.self) {
                try responses.models(of: Data("x".utf8), for: .courses) { (_) throws(Counted) -> [String] in throw Counted() }
            }
        }
    }
}
