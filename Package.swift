// swift-tools-version:6.2
import PackageDescription

/// Every Swift target runs in Swift 6 mode with nonisolated async functions running on the
/// caller's actor, so a session's view models stay inside the session's isolation domain.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "Bindery",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // What a developer imports: declare view models and shared models, build and run a server.
        .library(name: "Bindery", targets: ["Bindery"]),
        // The exhaustive view-model tester, for a developer's tests.
        .library(name: "BinderyTesting", targets: ["BinderyTesting"]),
        // Spans exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (swift-otel), for a
        // developer's own server; the `Bindery` product does not depend on it.
        .library(name: "BinderyTelemetry", targets: ["BinderyTelemetry"]),
        // The seed apps' server (the five screens of the articles in shared/seeds).
        .executable(name: "bindery", targets: ["SeedServer"]),
        // A Swift client of a Bindery server: sessions, remote view models, writes and commands.
        .library(name: "BinderyClient", targets: ["BinderyClient"]),
        // A readable `curl -N` for developers, on BinderyClient: writes, commands, one JSON line per version.
        .executable(name: "bindery-watch", targets: ["BinderyWatch"]),
        // The seed apps' typed clients (`bindery generate-client swift`), for Swift apps of the seeds
        // (Examples/SwiftUIForm).
        .library(name: "BinderySeedClients", targets: ["SeedClients"]),
        // The fuzz target: `scripts/fuzz` builds it with libFuzzer; an ordinary build replays files.
        .executable(name: "bindery-fuzz", targets: ["BinderyFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // bcrypt for password hashes (its HummingbirdBcrypt product only: a C bcrypt, nothing of Hummingbird).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Spans per request (the API only: an application bootstraps the tracer it wants).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The OTLP/HTTP trace exporter of BinderyTelemetry only (no gRPC: the trait keeps grpc-swift out).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // DocC for the public API: `swift package generate-documentation --target Bindery`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libmicrohttpd from Debian, linked through pkg-config.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The thin C shim: what Swift cannot call directly (variadic functions, option lists).
        // zlib (Debian's zlib1g-dev, which libmicrohttpd-dev depends on) compresses static files.
        .target(name: "CBinderyShim", dependencies: ["CMicroHTTPD"], linkerSettings: [.linkedLibrary("z")]),
        // HTTP server: request/response values, router, problems, streaming, static files.
        .target(
            name: "BinderyHTTP",
            dependencies: [
                "CBinderyShim",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // View-model runtime: inputs, outputs, commands, versions, activation. No HTTP inside.
        .target(name: "BinderyRuntime", swiftSettings: strictSettings),
        // Fake upstream provider: fixtures, latency, seeded failures. No HTTP inside.
        .target(
            name: "BinderyUpstream",
            dependencies: [.product(name: "HummingbirdBcrypt", package: "hummingbird-auth")],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        // Durable session state: the store protocol, SQLite (GRDB), PostgreSQL (postgres-nio) and
        // in-memory backends. No HTTP inside.
        .target(
            name: "BinderyStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The browser client: plain HTML, CSS and ES modules in Client/ (its README.md maps them),
        // copied as they are into a resource bundle; one Swift file says where they are.
        .target(name: "BinderyBrowserClient", resources: [.copy("Client")], swiftSettings: strictSettings),
        // Binding layer: sessions, routes to view models, snapshots, events, the server and its
        // services, the browser client's files and pages served over the app's own.
        .target(
            name: "BinderyBinding",
            dependencies: [
                "BinderyBrowserClient", "BinderyHTTP", "BinderyRuntime", "BinderyStore", "CBinderyShim",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        // The product `Bindery`: one import for declarations, runtime, server, stores and
        // configuration, plus the reusable command line (`ServeOptions`, `BinderyApp.main()`).
        .target(
            name: "Bindery",
            dependencies: [
                "BinderyBinding", "BinderyHTTP", "BinderyRuntime", "BinderyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The product `BinderyTelemetry`: bootstraps swift-otel's tracer from the OTEL_* variables.
        .target(
            name: "BinderyTelemetry",
            dependencies: [
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The product `BinderyTesting`: scripts of writes and commands, every change asserted.
        .target(
            name: "BinderyTesting",
            dependencies: ["BinderyRuntime", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictSettings
        ),
        // The seed apps — form, list, gallery, courses, recipes — and their fake upstream's routes,
        // built only on the public API of `Bindery`.
        .target(
            name: "SeedApps",
            dependencies: [
                "Bindery", "BinderyUpstream",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            // Outside the package's access group: `package` symbols of Bindery's modules are out
            // of reach, so the seed apps are built on the public API alone, as a developer's app is.
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The `bindery` command: the seed apps' server (its own folder name: `Sources/bindery`
        // would be `Sources/Bindery` on a case-insensitive file system).
        .executableTarget(
            name: "SeedServer",
            dependencies: [
                "Bindery", "SeedApps", "BinderyUpstream", "BinderyTelemetry",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The Swift client: URLSession (FoundationNetworking on Linux) and BinderyRuntime's JSON only,
        // nothing of the server (no libmicrohttpd, GRDB or postgres-nio in its graph).
        .target(name: "BinderyClient", dependencies: ["BinderyRuntime"], swiftSettings: strictSettings),
        // The seed apps' typed clients, generated from their declarations (`bindery generate-client
        // swift --output Sources/SeedClients`; a test fails when they are stale).
        .target(name: "SeedClients", dependencies: ["BinderyClient"], packageAccess: false, swiftSettings: strictSettings),
        // `bindery-watch`: the client's example and a developer's tool.
        .executableTarget(
            name: "BinderyWatch",
            dependencies: ["BinderyClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
        // The parsers of untrusted input and their invariants, for libFuzzer (see scripts/fuzz). Only
        // the two modules it needs, so a sanitized build does not compile the store's dependencies.
        .executableTarget(
            name: "BinderyFuzz",
            dependencies: ["BinderyHTTP", "BinderyRuntime", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/Fuzz/BinderyFuzz",
            swiftSettings: strictSettings
        ),
        // What several test targets share: a raw HTTP/1.1 client over loopback, child processes, gates,
        // the counting test clock, a recorder, turns for other tasks.
        .target(
            name: "BinderyTestSupport", dependencies: [.product(name: "Clocks", package: "swift-clocks")],
            path: "Tests/BinderyTestSupport", swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyHTTPTests", dependencies: ["BinderyHTTP", "BinderyTestSupport"], swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyRuntimeTests",
            dependencies: ["BinderyRuntime", "BinderyTesting", "BinderyTestSupport", "BinderyUpstream"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyStoreTests", dependencies: ["BinderyStore", "BinderyTestSupport"], swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyUpstreamTests",
            dependencies: ["BinderyUpstream", "BinderyTestSupport", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SeedAppsTests",
            dependencies: [
                "SeedApps", "BinderyUpstream", "BinderyTesting", "BinderyTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyIntegrationTests",
            dependencies: [
                "Bindery", "BinderyBinding", "SeedApps", "BinderyHTTP", "BinderyRuntime", "BinderyStore", "BinderyUpstream",
                "BinderyTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyClientTests",
            dependencies: [
                "BinderyClient", "Bindery", "BinderyBinding", "SeedApps", "SeedClients", "BinderyStore", "BinderyUpstream",
                "BinderyTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The DocC articles' code (Sources/Bindery/Bindery.docc): view models and tests on the public
        // API alone, outside the package's access group, as a developer's own package is.
        .testTarget(
            name: "BinderyDocumentationTests",
            dependencies: ["Bindery", "BinderyTesting"],
            packageAccess: false,
            swiftSettings: strictSettings
        ),
    ]
)
