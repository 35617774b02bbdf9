import BinderyRuntime
import CoreMetrics
import Logging

/// `bindery generate-client swift`: one Swift file per screen and per view model type reachable
/// through child routes (once per type name), sorted by file name, the same bytes for the same
/// declarations.
package enum SwiftClientGenerator {
    /// The files for `screens`.
    package static func files(for screens: [Screen]) -> [SwiftClientFile] {
        var files: [String: SwiftClientFile] = [:]
        for screen in screens where files[screen.schema.name] == nil {
            files[screen.schema.name] = SwiftClientFile(schema: screen.schema, screen: (screen.name, screen.title))
        }
        var pending = screens.map(\.schema)
        while let schema = pending.popLast() {
            for child in schema.children.map(\.viewModel) where files[child.name] == nil {
                files[child.name] = SwiftClientFile(schema: child, screen: nil)
                pending.append(child)
            }
        }
        return files.values.sorted { $0.fileName < $1.fileName }
    }

    /// The files for the screens of the app `build` makes (with a clock, a silent log and no
    /// metrics: nothing is served).
    package static func files(app build: @Sendable (AppContext) throws -> BinderyApp) rethrows -> [SwiftClientFile] {
        var logger = Logger(label: "bindery.generate-client")
        logger.logLevel = .critical
        return files(for: try build(AppContext(clock: ContinuousClock(), logger: logger, metrics: NOOPMetricsHandler.instance)).screens)
    }
}
