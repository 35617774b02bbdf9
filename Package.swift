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
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bindery", targets: ["bindery"]),
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
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // libmicrohttpd from Debian, linked through pkg-config.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The thin C shim: what Swift cannot call directly (variadic functions, option lists).
        .target(name: "CBinderyShim", dependencies: ["CMicroHTTPD"]),
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
        // Features: form, list and gallery view models. No HTTP inside.
        .target(
            name: "BinderyFeatures",
            dependencies: ["BinderyRuntime", "BinderyUpstream"],
            swiftSettings: strictSettings
        ),
        // Binding layer: sessions, routes to view models, snapshots, events, the application.
        .target(
            name: "BinderyBinding",
            dependencies: [
                "BinderyHTTP", "BinderyRuntime", "BinderyFeatures", "BinderyUpstream", "BinderyStore", "CBinderyShim",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings
        ),
        // The `bindery` command.
        .executableTarget(
            name: "bindery",
            dependencies: [
                "BinderyBinding", "BinderyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
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
        // A raw HTTP/1.1 client over loopback, shared by the HTTP and integration tests.
        .target(name: "BinderyTestSupport", path: "Tests/BinderyTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "BinderyHTTPTests", dependencies: ["BinderyHTTP", "BinderyTestSupport"], swiftSettings: strictSettings
        ),
        // The exhaustive view-model tester: scripts of writes and commands, every change asserted.
        .target(
            name: "BinderyViewModelTesting", dependencies: ["BinderyRuntime"], path: "Tests/BinderyViewModelTesting",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyRuntimeTests", dependencies: ["BinderyRuntime", "BinderyViewModelTesting", "BinderyTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "BinderyStoreTests", dependencies: ["BinderyStore"], swiftSettings: strictSettings),
        .testTarget(
            name: "BinderyUpstreamTests",
            dependencies: ["BinderyUpstream", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyFeaturesTests",
            dependencies: [
                "BinderyFeatures", "BinderyUpstream", "BinderyViewModelTesting",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BinderyIntegrationTests",
            dependencies: [
                "BinderyBinding", "BinderyFeatures", "BinderyHTTP", "BinderyRuntime", "BinderyStore", "BinderyUpstream", "BinderyTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
