import BinderyHTTP
import HTTPTypes
import Testing

@Suite("Router without a server")
struct RouterTests {
    @Test("Patterns match literals, parameters and a trailing rest")
    func patterns() async throws {
        var router = Router()
        router.add(.get, "/api/sessions") { _ in .text("sessions") }
        router.add(.get, "/api/views") { _ in .text("views") }
        router.add(.get, "/api/views/{rest...}") { request in .text(request.parameters["rest"] ?? "") }
        router.add(.get, "/upstream/images/{name}") { request in .text(request.parameters["name"] ?? "") }

        func body(_ path: String) async throws -> String {
            let response = try await router.respond(to: Request(method: .get, path: path))
            guard case .bytes(let bytes) = response.body else { return "" }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(try await body("/api/sessions") == "sessions")
        #expect(try await body("/api/views") == "views")
        #expect(try await body("/api/views/form") == "form")
        #expect(try await body("/api/views/list/items/7/commands/select") == "list/items/7/commands/select")
        #expect(try await body("/upstream/images/cat%2Fdog.png") == "cat/dog.png")
        let missing = try await router.respond(to: Request(method: .get, path: "/upstream/images/a/b"))
        #expect(missing.status == .notFound)
    }

    @Test("Routes are tried in registration order whatever their first segment")
    func registrationOrderAcrossFirstSegments() async throws {
        var router = Router()
        router.add(.get, "/api/special") { _ in .text("special") }
        router.add(.get, "/{page}/special") { request in .text("page " + (request.parameters["page"] ?? "")) }
        router.add(.get, "/api/{name}") { request in .text("api " + (request.parameters["name"] ?? "")) }
        router.add(.get, "/{rest...}") { request in .text("rest " + (request.parameters["rest"] ?? "")) }

        func body(_ path: String) async throws -> String {
            let response = try await router.respond(to: Request(method: .get, path: path))
            guard response.status == .ok, case .bytes(let bytes) = response.body else { return "\(response.status.code)" }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(try await body("/api/special") == "special")
        #expect(try await body("/api/other") == "api other")
        #expect(try await body("/home/special") == "page home")
        #expect(try await body("/api/a/b") == "rest api/a/b")
        #expect(try await body("/elsewhere") == "rest elsewhere")
        #expect(try await body("/") == "404")
    }

    @Test("Captures read one by one or as a dictionary, and the route names the pattern")
    func capturesAndRoute() async throws {
        var router = Router()
        router.add(.get, "/a/{x}/b/{y}/{rest...}") { request in
            .text(
                "\(request.parameter("x") ?? "-") \(request.parameter("y") ?? "-") \(request.parameter("rest") ?? "-") "
                    + request.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
        }
        router.add(.get, "/one/{name}") { request in .text(request.parameter("name") ?? "-") }
        router.add(.get, "/finer") { _ in Response(status: .ok, route: "/finer/{kind}") }
        let several = try await router.respond(to: Request(method: .get, path: "/a/1/b/2/c/d"))
        guard case .bytes(let bytes) = several.body else { throw CancellationError() }
        #expect(String(decoding: bytes, as: UTF8.self) == "1 2 c/d rest=c/d,x=1,y=2")
        #expect(several.route == "/a/{x}/b/{y}/{rest...}")
        #expect(several.logMetadata.isEmpty)
        let one = try await router.respond(to: Request(method: .get, path: "/one/n"))
        #expect(one.route == "/one/{name}")
        #expect(router.respondImmediately(to: Request(method: .get, path: "/one/n")) == nil)
        #expect(try await router.respond(to: Request(method: .get, path: "/finer")).route == "/finer/{kind}")
        var request = Request(method: .get, path: "/", parameters: ["k": "v"])
        #expect(request.parameter("k") == "v")
        request.parameters = [:]
        #expect(request.parameter("k") == nil)
    }

    @Test("A slash followed by a combining mark still separates segments (found by bindery-fuzz)")
    func slashBeforeACombiningMark() {
        // "/\u{0656}" is one Character: split by Characters, it was one segment "/\u{0656}".
        #expect(PercentDecoding.segments(ofRawPath: "/\u{0656}") == ["\u{0656}"])
        #expect(PercentDecoding.segments(ofRawPath: "/api/\u{0301}x/y") == ["api", "\u{0301}x", "y"])
        #expect(PercentDecoding.segments(ofRawPath: "/a%2F\u{0301}/b") == ["a/\u{0301}", "b"])
    }

    @Test("Problems render RFC 9457 JSON with sorted keys")
    func problemJSON() {
        let response = Problem(status: .badRequest, detail: "bad phone", extensions: ["field": "phone"]).response
        guard case .bytes(let bytes) = response.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #"{"detail":"bad phone","field":"phone","status":400,"title":"Bad Request","type":"about:blank"}"#)
        #expect(response.headers[.contentType] == "application/problem+json")
    }
}
