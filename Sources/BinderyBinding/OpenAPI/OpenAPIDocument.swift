import BinderyRuntime
import Foundation

/// The OpenAPI 3.1 document of a Bindery server: the fixed routes plus, for every screen and
/// child route, its snapshot, inputs, event stream and commands, all from the declarations.
///
/// A pure function of the screens and the configuration; served at `/openapi.json` and printed
/// by `bindery openapi`.
struct OpenAPIDocument {
    /// The document as JSON.
    let json: JSONValue

    /// Builds the document of a server with `screens` and `configuration`.
    init(screens: [Screen], configuration: BinderyConfiguration) {
        let servesClient = configuration.publicDirectory != nil
        let routes = OpenAPIViewRoute.all(screens)
        var schemas = OpenAPISchemaRegistry()
        var paths = OpenAPIFixedPaths.all(upstreamControl: configuration.upstreamControl)
        for route in routes {
            paths.merge(OpenAPIViewPaths.paths(of: route, schemas: &schemas)) { first, _ in first }
        }
        if servesClient {
            paths.merge(OpenAPIClientPaths.paths(for: routes)) { first, _ in first }
        }
        json = [
            "openapi": "3.1.0",
            "info": OpenAPIInfo.info,
            "tags": OpenAPIInfo.tags(for: screens, servesClient: servesClient),
            "paths": .object(paths),
            "components": [
                "schemas": .object(OpenAPISchemas.all.merging(schemas.components) { first, _ in first }),
                "responses": .object(OpenAPIResponses.all),
                "parameters": .object(OpenAPIParameters.all),
                "headers": .object(OpenAPIParameters.headers),
                "securitySchemes": .object(OpenAPIParameters.securitySchemes),
            ],
        ]
    }

    /// The document as pretty-printed JSON with sorted keys (so that equal documents are equal bytes).
    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? encoder.encode(json)) ?? Data()) + [UInt8(ascii: "\n")]
    }
}
