import BinderyHTTP
import BinderyRuntime
import HTTPTypes

/// An HTTP route of an app's own, next to its view models: a settings endpoint, an image, a
/// webhook. Registered once with its OpenAPI operation, which the server's document lists.
///
/// ```swift
/// Route(.get, "/api/hello", operation: OpenAPI.operation("hello", tag: "demo", summary: "Greets",
///                                                        ok: ["description": "A greeting."])) { _ in
///     .json(Array(#"{"hello":"world"}"#.utf8))
/// }
/// ```
public struct Route: Sendable {
    /// The method it answers.
    public let method: HTTPRequest.Method
    /// The path pattern: literal segments, `{name}` captures one, a last `{name...}` the rest.
    public let path: String
    /// The OpenAPI operation object the document lists for it; nil leaves it out.
    public let operation: JSONValue?
    let responder: any HTTPResponder

    /// A route answered by `responder`.
    public init(_ method: HTTPRequest.Method, _ path: String, operation: JSONValue? = nil, responder: some HTTPResponder) {
        self.method = method
        self.path = path
        self.operation = operation
        self.responder = responder
    }

    /// A route answered by `handle`; a thrown `Problem` is answered as such, anything else is a
    /// 500 that says nothing of its cause.
    public init(
        _ method: HTTPRequest.Method, _ path: String, operation: JSONValue? = nil,
        handle: @escaping @Sendable (Request) async throws -> Response
    ) {
        self.init(method, path, operation: operation, responder: HandlerResponder(handle: handle))
    }
}

/// A closure as a responder.
private struct HandlerResponder: HTTPResponder {
    let handle: @Sendable (Request) async throws -> Response

    func respond(to request: Request) async throws -> Response {
        try await handle(request)
    }
}
