// swift-tools-version:6.0
// The Hummingbird reference of issue 13's bench: the form's GET and a hand-written PATCH on
// Hummingbird 2, for `scripts/bench` to measure beside Bindery. Not part of Bindery's build or tests.
import PackageDescription

let package = Package(
    name: "hummingbird-reference",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdReference",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
