import BinderyRuntime
import BinderyStore
import Foundation
import Logging

extension BinderyServer {
    /// Reads every stored state with the app's declarations before serving
    /// (``StoredStateCheck``): puts back set-aside state this build reads now, then refuses to
    /// start on state it cannot read, or sets it aside when the configuration says so.
    func checkStoredState() async throws {
        guard let check = storedStateCheck() else { return }
        let (putBack, kept) = try await check.putBackReadable()
        for state in putBack {
            logger.notice("Set-aside state read by this build and put back", metadata: ["path": "\(state.record.key.path)"])
        }
        let report = try await check.run()
        for finding in report.newer { logger.warning("\(finding.line)") }
        if !report.undeclared.isEmpty {
            let count = report.undeclared.reduce(0) { $0 + $1.count }
            let paths = report.undeclared.prefix(3).map(\.path).joined(separator: ", ")
            logger.notice(
                "\(count) stored states at paths nothing declares any more (\(paths)\(report.undeclared.count > 3 ? ", …" : "")) are left as they are"
            )
        }
        var setAside = kept.count
        if !report.findings.isEmpty {
            guard configuration.unreadableStoredState == .setAside else {
                throw StoredStateRefusal(lines: report.findings.map(\.line))
            }
            for finding in report.findings {
                for state in finding.states
                where try await check.audit.setAside(state.key, version: state.version, reason: finding.summary, at: Date()) {
                    setAside += 1
                }
                logger.error("Set aside (a deploy with its migration puts it back): \(finding.summary)")
            }
        }
        if setAside > 0 { logger.error("\(setAside) stored states are set aside: a deploy with their migrations puts them back") }
        metrics.storedStatesSetAside(setAside)
        logger.info(
            "Stored state checked",
            metadata: ["current": "\(report.current)", "migrated": "\(report.readable)", "set_aside": "\(setAside)"]
        )
    }

    /// The check of this server's store with its app's declarations; nil for a store with nothing
    /// to check (in memory).
    func storedStateCheck() -> StoredStateCheck? {
        guard let audit = store.capabilities.audit else { return nil }
        var shapes: [String: PersistedShape] = [:]
        for model in app.sharedModels { shapes[model.name] = model.connection.recordShape }
        return StoredStateCheck(screens: Screen.byName(app.screens), recordShapes: shapes, audit: audit, sealing: sessions.sealing)
    }

    /// Checks the stored state of the app `build` makes over the store `configuration` names,
    /// without serving (`bindery check-store`): one line per finding; whether nothing stored is
    /// unreadable.
    public static func checkStore(
        configuration: BinderyConfiguration, logger: Logger = Logger(label: "bindery"),
        app build: @Sendable (AppContext) throws -> BinderyApp,
        print: (String) -> Void
    ) async throws -> Bool {
        let server = try await BinderyServer(configuration: configuration, logger: logger, app: build)
        guard let check = server.storedStateCheck() else {
            print("The store \(configuration.store) holds nothing to check.")
            return true
        }
        let report = try await check.run()
        let setAside = try await server.store.capabilities.audit?.setAsideStates() ?? []
        try? await server.store.close()
        print("\(report.current) stored states have their declaration's current shape; \(report.readable) read through migrations or checked.")
        for finding in report.newer { print("newer: \(finding.line)") }
        for group in report.undeclared { print("not declared: \(group.count) states at \(group.path) (left as they are)") }
        if !setAside.isEmpty { print("\(setAside.count) states are set aside from earlier starts.") }
        for finding in report.findings { print("unreadable: \(finding.line)") }
        print(
            report.findings.isEmpty
                ? "OK: this build reads every stored state." : "FAILED: \(report.unreadableCount) stored states cannot be read by this build.")
        return report.findings.isEmpty
    }
}

/// The server would not start: stored state its declarations cannot read, one line per view
/// model or collection and reason.
public struct StoredStateRefusal: Error, CustomStringConvertible {
    /// One line each: the declaration, where, the stored version, the member, what to do.
    public let lines: [String]

    /// The lines, one per line.
    public var description: String { lines.joined(separator: "\n") }
}
