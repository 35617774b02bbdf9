import ArgumentParser
import BinderyClient
import Foundation

/// `bindery-watch`: writes inputs, runs commands, then prints one JSON line per version of a view
/// model: `{"version": 3, "changed": {"phoneValid": true}}` (the outputs that changed; the first
/// line has them all).
@main
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bindery-watch",
        abstract: "Follows a Bindery view model: one JSON line per version, with the outputs that changed."
    )

    @Option(help: "The server, e.g. http://127.0.0.1:8080.")
    var url: String

    @Option(help: "A session's bearer token (default: a new session, its token printed to stderr).")
    var token: String?

    @Option(name: .customLong("set"), help: "Writes an input first: NAME=VALUE (VALUE is JSON when it parses, else a string).")
    var sets: [Assignment] = []

    @Option(name: .customLong("run"), help: "Executes a command after the writes before it: NAME or NAME=JSON-ARGUMENT.")
    var runs: [Assignment] = []

    @Option(help: "Exits after this many versions (default: follows until interrupted).")
    var count: Int?

    @Argument(help: "The view model's path, e.g. counter or list/items/42/edit.")
    var view: String

    @MainActor
    func run() async throws {
        guard let server = URL(string: url) else { throw ValidationError("--url is not a URL") }
        Interruption.exitOnSIGINT()
        do {
            let session: BinderySession
            if let token {
                session = BinderySession(baseURL: server, token: token)
            } else {
                session = try await BinderySession.create(at: server)
                Output.error("token: \(session.token)")
            }
            let remote = session.view(view)
            let printer = Task { await VersionPrinter(limit: count).print(remote.versions()) }
            let following = Task { await remote.follow() }
            // The first event: the stream is open (the view model active), the first line printed.
            try await remote.wait {
                switch $0.connection {
                case .live, .failed: true
                default: false
                }
            }
            if case .failed(let problem) = remote.connection { throw problem }
            Task {
                _ = await following.value
                // It returns by itself only when refused for good (an unknown session, no such view).
                if case .failed(let problem) = remote.connection {
                    Output.error(Output.json(problem.document))
                    Foundation.exit(1)
                }
            }
            for step in Steps.inOrder(sets: sets, runs: runs, arguments: CommandLine.arguments) {
                switch step {
                case .set(let assignments):
                    let values = assignments.map { ($0.name, Assignment.value($0.text, current: remote[input: $0.name])) }
                    try await remote.write(Dictionary(values) { _, last in last })
                case .run(let name, let argument): try await remote.run(name, with: argument)
                }
            }
            await printer.value
            following.cancel()
        } catch let problem as RemoteProblem {
            Output.error(Output.json(problem.document))
            throw ExitCode(1)
        }
    }
}
