import Testing

@testable import BinderyStore

@Suite("Store locations")
struct StoreLocationTests {
    @Test func knownLocationsParse() throws {
        #expect(try StoreLocation(parsing: "memory") == .memory)
        #expect(try StoreLocation(parsing: "sqlite:.bindery/bindery.sqlite") == .default)
        #expect(
            try StoreLocation(parsing: "sqlite:/var/lib/bindery/state.sqlite")
                == .sqlite(path: "/var/lib/bindery/state.sqlite"))
        #expect(try StoreLocation(parsing: "postgres://db/bindery") == .postgres(url: "postgres://db/bindery"))
        #expect(try StoreLocation(parsing: "postgresql://db/bindery") == .postgres(url: "postgresql://db/bindery"))
    }

    @Test func descriptionsParseBack() throws {
        for text in ["memory", "sqlite:.bindery/bindery.sqlite", "postgres://db:5432/bindery"] {
            #expect(try StoreLocation(parsing: text).description == text)
        }
    }

    @Test func anythingElseIsAClearError() {
        for text in ["", "sqlite:", "mysql://db", "Memory", "file:/tmp/x"] {
            let error = #expect(throws: StoreLocationError.self) { try StoreLocation(parsing: text) }
            #expect(error?.description.hasPrefix("invalid store \"\(text)\": ") == true)
        }
    }

    @Test func anUnreachablePostgresFailsNamingTheURLWithoutItsPassword() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let location = try StoreLocation(parsing: "postgres://app:s3cret@127.0.0.1:1/bindery")
        #expect(location.description == "postgres://app:***@127.0.0.1:1/bindery")
        let error = await #expect(throws: StoreError.self) { try await location.open() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("cannot open store postgres://app:***@127.0.0.1:1/bindery: "))
        #expect(!text.contains("s3cret"))
    }

    @Test func memoryOpensAMemoryStore() async throws {
        #expect(try await StoreLocation.memory.open() is MemoryStore)
    }
}
