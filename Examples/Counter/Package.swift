// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Counter",
    platforms: [.macOS(.v15)],
    // Bindery by path: this repository's root. In a copy of this example, point it at your clone.
    dependencies: [.package(name: "Bindery", path: "../..")],
    targets: [
        .target(name: "Counter", dependencies: [.product(name: "Bindery", package: "Bindery")]),
        .executableTarget(name: "CounterServer", dependencies: ["Counter"]),
        // The Counter's typed client, generated from its declaration (`swift run CounterServer
        // generate-client swift --output Sources/CounterClient`; a test fails when it is stale).
        .target(name: "CounterClient", dependencies: [.product(name: "BinderyClient", package: "Bindery")]),
        .testTarget(
            name: "CounterTests", dependencies: ["Counter", .product(name: "BinderyTesting", package: "Bindery")]
        ),
    ]
)
