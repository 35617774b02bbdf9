import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL from Debian's packages for the tests: initialised in a temporary directory,
/// listening on a free loopback port with a private socket directory, started once per test
/// process and stopped when the process ends (never a system service). When it cannot be installed
/// or started, ``shared()`` throws a ``PostgresServerError`` saying why, so the PostgreSQL tests
/// fail rather than skip.
public final class PostgresServer: Sendable {
    /// Where its programs are (`initdb`, `psql`).
    public let binDirectory: String
    /// Its data directory.
    public let directory: String
    /// The loopback port it listens on.
    public let port: Int
    private let databases = Atomic<Int>(0)

    private init(binDirectory: String, directory: String, port: Int) {
        self.binDirectory = binDirectory
        self.directory = directory
        self.port = port
    }

    private static let starting = Task<PostgresServer, any Error> {
        try await runBlocking { try PostgresServer.start() }
    }

    /// The server of this test process, started on first use.
    public static func shared() async throws -> PostgresServer {
        try await starting.value
    }

    /// The URL of a new, empty database, so every test starts from nothing.
    public func makeDatabase() async throws -> String {
        let name = "bindery_test_\(databases.add(1, ordering: .relaxed).newValue)"
        try await sql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// `postgres://postgres@127.0.0.1:PORT/DATABASE`.
    public func url(database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Runs SQL through `psql` on the `postgres` database; returns what it printed (unaligned,
    /// tuples only).
    @discardableResult
    public func sql(_ statement: String, database: String = "postgres") async throws -> String {
        let arguments = [
            "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-At",
            "-c", statement,
        ]
        let binDirectory = self.binDirectory
        return try await Self.runBlocking { try Self.run("\(binDirectory)/psql", arguments) }
    }

    // MARK: - Start and stop

    private static func start() throws -> PostgresServer {
        let binDirectory = try findOrInstallBinaries()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let asPostgres = getuid() == 0
        if asPostgres {
            // initdb refuses root: the directory belongs to the postgres user.
            try run("/bin/chown", ["postgres:postgres", directory])
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        let data = "\(directory)/data"
        try runServerTool(
            "\(binDirectory)/initdb",
            ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
            asPostgres: asPostgres
        )
        var lastError: (any Error)?
        for _ in 1...3 {
            let port = try LoopbackPort.free()
            do {
                try startServer(binDirectory: binDirectory, directory: directory, port: port, asPostgres: asPostgres)
                let server = PostgresServer(binDirectory: binDirectory, directory: directory, port: port)
                try server.watchTestProcess(asPostgres: asPostgres)
                return server
            } catch {
                lastError = error
            }
        }
        throw PostgresServerError("PostgreSQL did not start: \(lastError.map { "\($0)" } ?? "?")")
    }

    /// Runs `postgres` itself as a child process (not through `pg_ctl start`, so a server that
    /// fails to start is seen at once) and waits until it accepts connections.
    private static func startServer(binDirectory: String, directory: String, port: Int, asPostgres: Bool) throws {
        let postgres = [
            "\(binDirectory)/postgres", "-D", "\(directory)/data", "-p", "\(port)", "-k", directory,
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off", "-c", "max_connections=300",
        ]
        let logPath = "\(directory)/server-\(port).log"
        let server = try ChildProcess.start(
            asPostgres ? "/usr/sbin/runuser" : postgres[0],
            asPostgres ? ["-u", "postgres", "--"] + postgres : Array(postgres.dropFirst()),
            directory: "/tmp", output: logPath
        )
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard server.isRunning else { break }
            if (try? run("\(binDirectory)/pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(port)"])) != nil { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if server.isRunning { server.terminate() }
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        throw PostgresServerError("postgres on port \(port) did not accept connections; its log: \(text.suffix(600))")
    }

    /// Starts a detached watcher that stops the server and removes its directory once this test
    /// process has ended, however it ends (a crash included).
    private func watchTestProcess(asPostgres: Bool) throws {
        let stop = "\(binDirectory)/pg_ctl -D \(directory)/data -m immediate stop"
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
            \(asPostgres ? "runuser -u postgres -- \(stop)" : stop) >/dev/null 2>&1
            rm -rf \(directory)
            """
        _ = try ChildProcess.start("/bin/sh", ["-c", script])
    }

    /// `/usr/lib/postgresql/15/bin` (or the newest installed version), installing Debian's
    /// `postgresql` package with apt-get when no server is installed.
    private static func findOrInstallBinaries() throws -> String {
        if let found = installedBinaries() { return found }
        guard getuid() == 0 else {
            throw PostgresServerError("no PostgreSQL server under /usr/lib/postgresql; install Debian's postgresql package")
        }
        do {
            try run("/usr/bin/env", ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "postgresql"])
        } catch {
            _ = try? run("/usr/bin/apt-get", ["update", "-q"])
            try run("/usr/bin/env", ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "postgresql"])
        }
        guard let found = installedBinaries() else {
            throw PostgresServerError("apt-get installed postgresql but no initdb is under /usr/lib/postgresql")
        }
        return found
    }

    private static func installedBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let preferred = versions.contains("15") ? ["15"] : versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        return preferred.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    private static func runServerTool(_ tool: String, _ arguments: [String], asPostgres: Bool) throws {
        if asPostgres {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
        } else {
            try run(tool, arguments)
        }
    }

    /// Runs a program to its end; throws with its output when it fails.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status: Int32
        do {
            status = try ChildProcess.run(program, arguments, directory: "/tmp", output: outputPath)
        } catch {
            throw PostgresServerError("cannot run \(program): \(error)")
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PostgresServerError(
                "\((program as NSString).lastPathComponent) \(arguments.prefix(4).joined(separator: " ")) exited "
                    + "\(status): \(text.suffix(800))"
            )
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs blocking work (waiting for processes) off the cooperative thread pool.
    private static func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// Why the test PostgreSQL could not be used: fails the test with this text.
public struct PostgresServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) {
        self.description = "PostgreSQL test server: \(description)"
    }
}
