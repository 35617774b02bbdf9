import CheckSupport
import CounterAPI
import Foundation
import OpenAPIURLSession
import SeedAppsAPI

// Usage: GeneratedClientsCheck seed|counter <server URL>. Prints a line per passed step; exits 1
// with the failure on stderr at the first step that does not hold.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let url = URL(string: arguments.last!) else {
    FileHandle.standardError.write(Data("usage: GeneratedClientsCheck seed|counter <server URL>\n".utf8))
    exit(2)
}
do {
    switch arguments.first {
    case "seed": try await SeedAppsCheck.run(serverURL: url, transport: URLSessionTransport())
    case "counter": try await CounterCheck.run(serverURL: url, transport: URLSessionTransport())
    default: throw CheckFailure("unknown document \(arguments.first ?? "")")
    }
} catch {
    FileHandle.standardError.write(Data("failed: \(error)\n".utf8))
    exit(1)
}
