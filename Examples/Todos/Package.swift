// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Todos",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Bindery by path: this repository's root. In a copy of this example, point it at your clone.
        .package(name: "Bindery", path: "../.."),
        // The executable's command line (`serve`, `add-user`, …); Bindery's own options plug into it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "Todos", dependencies: [.product(name: "Bindery", package: "Bindery")]),
        .executableTarget(
            name: "TodosServer",
            dependencies: ["Todos", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "TodosTests", dependencies: ["Todos", .product(name: "BinderyTesting", package: "Bindery")]),
    ]
)
