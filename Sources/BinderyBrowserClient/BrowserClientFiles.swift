import Foundation

/// Where Bindery's browser client is: the folder `Client/` beside this file (HTML, CSS and ES
/// modules; its `README.md` is the client's map), which SwiftPM copies into this target's resource
/// bundle.
///
/// Not `Bundle.module`: on Linux its accessor stops the process when the bundle is missing, and a
/// server copied without its bundle serves the API without pages instead.
package enum BrowserClientFiles {
    /// The client's folder: the resource bundle SwiftPM puts next to the executable
    /// (`Bindery_BinderyBrowserClient.resources/Client`; a copied binary needs that folder beside
    /// it), else the sources this file was built from (a checkout, or the package's checkout under a
    /// developer's `.build/`); nil when neither has an `index.html`.
    package static var directory: URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        let besides = Bundle.main.bundleURL.path
        let candidates = [
            besides + "/\(bundle).resources/Client",
            besides + "/\(bundle).bundle/Client",
            executable.deletingLastPathComponent().path + "/\(bundle).resources/Client",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Client",
        ]
        return candidates.first { isClient($0) }.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The resource bundle's name: the package's name and this target's.
    private static let bundle = "Bindery_BinderyBrowserClient"

    private static func isClient(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
            && FileManager.default.fileExists(atPath: path + "/index.html")
    }
}
