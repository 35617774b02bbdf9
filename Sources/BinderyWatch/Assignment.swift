import ArgumentParser
import BinderyClient
import Foundation

/// `NAME=VALUE` of `--set`, or `NAME` / `NAME=ARGUMENT` of `--run`.
struct Assignment: ExpressibleByArgument {
    let name: String
    let text: String?

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return nil }
        self.name = String(name)
        self.text = parts.count == 2 ? String(parts[1]) : nil
    }

    /// VALUE as JSON when it parses, else as a string; a string too when the input holds a string
    /// now (`--set phone=18612345678` writes the text, not a number).
    static func value(_ text: String?, current: JSONValue?) -> JSONValue {
        guard let text else { return .null }
        guard let json = try? JSONValue(parsing: Array(text.utf8)) else { return .string(text) }
        if case .string = current, json.stringValue == nil { return .string(text) }
        return json
    }

    /// ARGUMENT of `--run NAME=ARGUMENT` as JSON (a string when it is not JSON), or none.
    var argument: JSONValue? {
        text.map { Self.value($0, current: nil) }
    }
}

/// The `--set`s and `--run`s in the order the command line gives them; consecutive `--set`s are
/// one step (one write).
enum Steps {
    case set([Assignment])
    case run(String, JSONValue?)

    /// Interleaves `sets` and `runs` (each in its own order) as they appear in `arguments`.
    static func inOrder(sets: [Assignment], runs: [Assignment], arguments: [String]) -> [Steps] {
        var sets = sets[...], runs = runs[...]
        var steps: [Steps] = []
        for argument in arguments {
            if argument == "--set" || argument.hasPrefix("--set="), let next = sets.popFirst() {
                if case .set(let earlier) = steps.last {
                    steps[steps.count - 1] = .set(earlier + [next])
                } else {
                    steps.append(.set([next]))
                }
            } else if argument == "--run" || argument.hasPrefix("--run="), let next = runs.popFirst() {
                steps.append(.run(next.name, next.argument))
            }
        }
        return steps + (sets.isEmpty ? [] : [.set(Array(sets))]) + runs.map { .run($0.name, $0.argument) }
    }
}
