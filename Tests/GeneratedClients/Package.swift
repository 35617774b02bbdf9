// swift-tools-version:6.2
import PackageDescription

/// Clients generated from Bindery's OpenAPI documents by Apple's swift-openapi-generator, the way
/// an app's developer would: its build plugin on the served document, Apple's URLSession
/// transport. Built by the test command; `GeneratedClientsCheck` then drives a real server with
/// them (Tests/generated). Generated code lands in the scratch path, never in git.
let package = Package(
    name: "GeneratedClients",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // What both checks share: the bearer-token middleware and the check helpers.
        .target(
            name: "CheckSupport",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // docs/openapi.json: the seed apps' document, as `bindery openapi` prints it.
        .target(
            name: "SeedAppsAPI",
            dependencies: ["CheckSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Examples/Counter/openapi.json: the Counter's, as `CounterServer openapi` prints it.
        .target(
            name: "CounterAPI",
            dependencies: ["CheckSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "GeneratedClientsCheck",
            dependencies: [
                "SeedAppsAPI", "CounterAPI", "CheckSupport",
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        ),
    ]
)
