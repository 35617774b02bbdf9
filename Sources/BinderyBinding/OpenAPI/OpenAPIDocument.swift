import BinderyRuntime
import Foundation

/// The OpenAPI 3.1 document of a Bindery server: the routes registered with their operations
/// plus, for every screen and child route, its snapshot, inputs, event stream and commands, all
/// from the declarations.
///
/// A pure function of the screens and the routes; served at `/openapi.json` and printed by an
/// executable's `openapi` subcommand.
struct OpenAPIDocument {
    /// The document as JSON.
    let json: JSONValue

    /// Builds the document of a server with `screens` whose other routes are documented by
    /// `paths` (path items by path), with an app's `additions`; `servesClient` adds the pages.
    init(screens: [Screen], paths fixed: [String: JSONValue], additions: OpenAPIAdditions, servesClient: Bool) {
        let routes = OpenAPIViewRoute.all(screens)
        var schemas = OpenAPISchemaRegistry()
        var paths = fixed
        for route in routes {
            paths.merge(OpenAPIViewPaths.paths(of: route, schemas: &schemas)) { first, _ in first }
        }
        if servesClient {
            paths.merge(OpenAPIClientPaths.paths(for: routes)) { first, _ in first }
        }
        json = [
            "openapi": "3.1.0",
            "info": OpenAPIInfo.info,
            "tags": OpenAPIInfo.tags(for: screens, adding: additions.tags, servesClient: servesClient),
            "paths": .object(paths),
            "components": [
                "schemas": .object(
                    OpenAPISchemas.all.merging(schemas.components) { first, _ in first }
                        .merging(OpenAPICollaborationPaths.schemas) { first, _ in first }
                        .merging(OpenAPIUserPaths.schemas) { first, _ in first }
                        .merging(additions.schemas) { first, _ in first }
                ),
                "responses": .object(OpenAPIResponses.all.merging(OpenAPIUserPaths.responses) { first, _ in first }),
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
