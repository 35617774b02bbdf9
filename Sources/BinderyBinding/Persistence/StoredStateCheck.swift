import BinderyRuntime
import BinderyStore
import Foundation

/// Reads every stored state with the current declarations, before a server serves or for
/// `bindery check-store`: what a deploy would not be able to read is found at start, never by a
/// user whose data silently went missing.
///
/// States are grouped by where they live and the shape that wrote them; a group stored with its
/// declaration's current shape is not read (its fingerprint vouches for it), every other state is
/// migrated and checked (``PersistedShape``). Findings are grouped by declaration and reason, one
/// line each.
struct StoredStateCheck {
    let screens: [String: Screen]
    /// The record shapes of the shared and per-user models, by model name.
    let recordShapes: [String: PersistedShape]
    let audit: any StoredStateAudit
    let sealing: SealingKey

    /// What the check found.
    struct Report {
        /// States read through a migration or an unvouched shape and found readable.
        var readable = 0
        /// States stored with their declaration's current shape (not read).
        var current = 0
        /// States this build cannot read, one finding per declaration and reason.
        var findings: [Finding] = []
        /// States written by a newer declaration (newer nodes share the store): left alone.
        var newer: [Finding] = []
        /// Paths no screen, route or model declares any more: left alone, never read nor written.
        var undeclared: [StoredShapeGroup] = []

        /// The unreadable states' count.
        var unreadableCount: Int { findings.reduce(0) { $0 + $1.states.count } }
    }

    /// Stored states one declaration cannot read, for one reason.
    struct Finding {
        /// `view model Counter` or `shared model notes`.
        var subject: String
        /// Whether they are records of a shared or per-user model.
        var isRecord: Bool
        /// Where they are stored (the first path, and how many others).
        var paths: [String]
        var error: PersistedStateError
        /// Each state's place and version, to set aside.
        var states: [(key: ViewModelKey, version: Int)]

        /// What, where and why, without what to do (once it was done: set aside).
        var summary: String {
            let place = paths.count == 1 ? "at \(paths[0])" : "at \(paths[0]) and \(paths.count - 1) other paths"
            let count = states.count == 1 ? "1 stored state" : "\(states.count) stored states"
            return "\(subject) \(place), \(count): \(error)"
        }

        /// One line: what, where, why, and what to do.
        var line: String {
            let remedy: String
            switch error {
            case .newer:
                remedy = "left alone: a node running the newer declaration reads it"
            case .migrationFailed:
                remedy = "fix that migration, or start with --set-aside-unreadable-state to set these states aside"
            case .unreadable(let version, _, _):
                let place = isRecord ? "`static var persistedMigrations` of its record type" : "`.migrations([...])` on its `persists:`"
                remedy =
                    "add a migration from persisted version \(version) (\(place); see docs/guide/persisting.md), "
                    + "or start with --set-aside-unreadable-state to set these states aside"
            }
            return "\(summary); \(remedy)."
        }
    }

    func run() async throws -> Report {
        var report = Report()
        var findings: [String: Finding] = [:]
        var newer: [String: Finding] = [:]
        for group in try await audit.storedShapes() {
            guard let (subject, shape) = declaration(of: group) else {
                report.undeclared.append(group)
                continue
            }
            if group.shape == shape.stored.description, !shape.isOpaque {
                report.current += group.count
                continue
            }
            for record in try await audit.storedStates(in: group) {
                do throws(PersistedStateError) {
                    _ = try read(record, by: shape, isRecord: group.isRecord)
                    report.readable += 1
                } catch {
                    let id = "\(subject)|\(error)"
                    let state = (key: record.key, version: record.version)
                    if case .newer = error {
                        newer[id, default: Finding(subject: subject, isRecord: group.isRecord, paths: [], error: error, states: [])].add(
                            state, at: group.path)
                    } else {
                        findings[id, default: Finding(subject: subject, isRecord: group.isRecord, paths: [], error: error, states: [])].add(
                            state, at: group.path)
                    }
                }
            }
        }
        report.findings = findings.values.sorted { $0.subject < $1.subject }
        report.newer = newer.values.sorted { $0.subject < $1.subject }
        return report
    }

    /// Puts back every set-aside state this build reads now (a deploy that added the migration)
    /// where nothing was stored since; returns those put back and those that stay aside.
    func putBackReadable() async throws -> (putBack: [SetAsideState], kept: [SetAsideState]) {
        var putBack: [SetAsideState] = []
        var kept: [SetAsideState] = []
        for state in try await audit.setAsideStates() {
            let group = StoredShapeGroup(isRecord: state.isRecord, path: state.record.key.path, shape: state.record.shape, count: 1)
            if let (_, shape) = declaration(of: group), (try? read(state.record, by: shape, isRecord: state.isRecord)) != nil,
                try await audit.putBack(state.record.key)
            {
                putBack.append(state)
            } else {
                kept.append(state)
            }
        }
        return (putBack, kept)
    }

    /// Reads one stored state as the server would restore it.
    private func read(_ record: ViewModelRecord, by shape: PersistedShape, isRecord: Bool) throws(PersistedStateError) -> JSONValue {
        guard var state = try? StoredJSON.decode(record.state) else {
            throw .unreadable(storedVersion: StoredShape(parsing: record.shape ?? "")?.version ?? 1, member: "(state)", reason: "is not JSON")
        }
        if !isRecord { state = SealedMembers.open(state, key: sealing, place: record.key) }
        return try shape.read(state, storedAs: record.shape.flatMap(StoredShape.init(parsing:))).state
    }

    /// What declares the states of `group`, and its shape; nil when nothing does any more.
    private func declaration(of group: StoredShapeGroup) -> (String, PersistedShape)? {
        if group.isRecord {
            guard let model = group.path.split(separator: "/").first.map(String.init), let shape = recordShapes[model] else { return nil }
            return ("shared model \(model)", shape)
        }
        let segments = group.path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = segments.first, let screen = screens[String(name)],
            let schema = screen.schema.descendant(at: segments.dropFirst())
        else { return nil }
        return ("view model \(schema.name)", schema.persistence)
    }
}

extension StoredStateCheck.Finding {
    fileprivate mutating func add(_ state: (key: ViewModelKey, version: Int), at path: String) {
        states.append(state)
        if !paths.contains(path) { paths.append(path) }
    }
}
