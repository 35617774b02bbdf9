// swift-tools-version:6.2
import PackageDescription

// The seed's login form as a SwiftUI app, bound to the server's `Form` view model through the
// generated `FormClient`. Apple platforms only: on Linux its sources compile to nothing.
let package = Package(
    name: "SwiftUIForm",
    // Bindery's own minimums (macOS 15, iOS 18: its runtime uses `Synchronization`'s `Mutex`).
    platforms: [.macOS(.v15), .iOS(.v18)],
    // Bindery by path: this repository's root. In a copy of this example, point it at your clone.
    dependencies: [.package(name: "Bindery", path: "../..")],
    targets: [
        .executableTarget(
            name: "SwiftUIForm",
            dependencies: [
                .product(name: "BinderyClient", package: "Bindery"),
                .product(name: "BinderySeedClients", package: "Bindery"),
            ]
        ),
    ]
)
