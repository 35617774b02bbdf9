import ArgumentParser
import Bindery
import Todos

/// `TodosServer --port 8080 --store sqlite:todos.sqlite --accounts accounts.txt` serves the todos;
/// `TodosServer add-user ada --accounts accounts.txt` adds a user (the password on standard input).
@main
struct TodosServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "TodosServer", abstract: "TodoMVC on Bindery: each user's todos, live on every device they sign in on.",
        subcommands: [Serve.self, AddUser.self, OpenAPI.self], defaultSubcommand: Serve.self
    )
}

/// Bindery's options (`--port`, `--store`, …, each also a `BINDERY_*` variable) and the accounts file.
struct AppOptions: ParsableArguments {
    @OptionGroup var bindery: ServeOptions
    @Option(help: "The accounts: one `username:bcrypt-hash` line each (add-user writes it).")
    var accounts = "accounts.txt"

    var app: @Sendable (AppContext) -> BinderyApp {
        let accounts = Accounts(file: accounts)
        return { _ in TodosViewModel.app(accounts: accounts) }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the todos until SIGINT or SIGTERM (the default).")
    @OptionGroup var options: AppOptions

    func run() async throws { try await options.bindery.serve(app: options.app) }
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-user", abstract: "Add a user, or give one a new password: the password is read from standard input."
    )
    @Option(help: "The accounts file.") var accounts = "accounts.txt"
    @Option(help: "bcrypt's work factor, 4...31: each sign-in takes as long as the hash did.") var cost = PasswordHash.defaultCost
    @Argument(help: "The username: one line without a colon.") var username: String

    func validate() throws {
        guard !username.isEmpty, !username.contains(":"), !username.contains(where: \.isNewline) else {
            throw ValidationError("A username is one line without a colon.")
        }
    }

    func run() async throws {
        guard let password = readLine(), !password.isEmpty else { throw ValidationError("Type the password on standard input.") }
        try await Accounts(file: accounts).add(username, password: password, cost: cost)
    }
}

struct OpenAPI: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "openapi", abstract: "Print the OpenAPI document, without serving.")
    @OptionGroup var options: AppOptions

    func run() throws { try options.bindery.printOpenAPIDocument(app: options.app) }
}
