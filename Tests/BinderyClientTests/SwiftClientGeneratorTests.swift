import BinderyBinding
import BinderyRuntime
import SeedApps
import Testing

@Suite("bindery generate-client swift: names, types, files")
struct SwiftClientGeneratorTests {
    @Test func namesAreSafeSwift() {
        #expect(SwiftNames.identifier("phone") == "phone")
        #expect(SwiftNames.identifier("default") == "`default`")
        #expect(SwiftNames.identifier("in") == "`in`")
        #expect(SwiftNames.identifier("3d") == "_3d")
        #expect(SwiftNames.identifier("film-type") == "film_type")
        #expect(SwiftNames.identifier("") == "unnamed")
        #expect(SwiftNames.identifier("_") == "__")
        #expect(SwiftNames.capitalized("addStep") == "AddStep")
        #expect(SwiftNames.capitalized("poi") == "Poi")
        #expect(SwiftNames.literal("say \"hi\"\\\n") == #""say \"hi\"\\\n""#)
        #expect(SwiftNames.oneLine("two\n  lines") == "two lines")
    }

    @Test func schemasMapToSwiftTypes() {
        #expect(SwiftClientType(.text).spelling == "String")
        #expect(SwiftClientType(.enumeration(["red", "black"])).spelling == "String")
        #expect(SwiftClientType(.integer(minimum: 1, maximum: 10)).spelling == "Int")
        #expect(SwiftClientType(.number).spelling == "Double")
        #expect(SwiftClientType(.boolean).spelling == "Bool")
        #expect(SwiftClientType(.nullable(.text)).spelling == "String?")
        #expect(SwiftClientType(.nullable(.nullable(.int))).spelling == "Int?")
        #expect(SwiftClientType(.named("Step", .object(["id": .text]))).spelling == "JSONValue")
        #expect(SwiftClientType(.array(.text)).spelling == "[JSONValue]")
        #expect(SwiftClientType(.nullable(.array(.text))).spelling == "JSONValue", "null is .null")
        #expect(SwiftClientType.optional(.double).json("x") == "x.map { JSONValue.double($0) } ?? .null")
        #expect(Schema.string(maxLength: 64).clientDescription == "string, at most 64 characters")
        #expect(Schema.nullable(.integer(minimum: 1, maximum: 9)).clientDescription == "integer 1...9, or null")
    }

    @Test func commandArgumentsBecomeLabelledParameters() throws {
        let argument = try #require(
            SwiftClientArgument(
                .named(
                    "AddStep",
                    .object(["name": .text, "durationSeconds": .int, "agitation": .text, "in": .number], required: ["name", "durationSeconds"]))
            )?.parameters)
        #expect(argument == "durationSeconds: Int, name: String, agitation: String? = nil, `in`: Double? = nil")
    }

    @Test func theSeedAppsFilesAreOnePerTypeSortedAndDeterministic() {
        let files = SwiftClientGenerator.files { SeedApps(context: $0).app }
        let again = SwiftClientGenerator.files { SeedApps(context: $0).app }
        #expect(files.map(\.fileName) == files.map(\.fileName).sorted())
        #expect(files.map(\.contents) == again.map(\.contents))
        #expect(files.map(\.fileName).contains("POICellClient.swift"), "a child route's type has its file")
        let list = files.first { $0.fileName == "ListClient.swift" }?.contents ?? ""
        #expect(list.contains("public func item(id: String) -> POICellClient {"))
        #expect(list.contains(#"POICellClient(session: session, path: remote.path + "/items/" + id.pathSegment)"#))
        let detail = files.first { $0.fileName == "RecipeDetailClient.swift" }?.contents ?? ""
        #expect(detail.contains("public var edit: RecipeEditClient {"))
    }
}
