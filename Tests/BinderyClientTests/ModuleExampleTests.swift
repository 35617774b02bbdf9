import BinderyClient
import Foundation
import Testing

// The example of `BinderyClient.docc/BinderyClient.md`, verbatim (a test below checks it is).
@MainActor
func typeAPhoneNumber(server: URL) async throws -> Bool {
    let session = try await BinderySession.create(at: server)
    let form = session.view("form")
    let following = Task { await form.follow() }
    defer { following.cancel() }
    try await form.refresh()
    form[input: "phone"] = "18612345678"
    try await form.wait { $0.output("phoneValid", as: Bool.self) == true }
    try await form.write(["password": "passw0rd"])
    try await form.run("clear")
    return form.input("phone", as: String.self) == "186"
}

@MainActor
@Suite("The module's example")
struct ModuleExampleTests {
    @Test func theExampleRuns() async throws {
        try await ClientTestServer.with { server in
            let cleared = try await within { try await typeAPhoneNumber(server: server.url) }
            #expect(cleared)
        }
    }

    @Test func theDocumentShowsThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let repository = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: repository.appending(path: "Sources/BinderyClient/BinderyClient.docc/BinderyClient.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let shown = try #require(article.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
        #expect(source.contains(lines.joined(separator: "\n")), "the example in BinderyClient.md differs from this file's")
    }
}
