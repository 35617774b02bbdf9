#if canImport(Glibc)
import Glibc
#endif

/// A program the tests run as a child process, started with `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and copies each entry's
/// whole 256-byte name, reading past the end of the directory buffer once the test process holds
/// a thousand or so descriptors (as it does while the suites run in parallel): the test process
/// died of SIGSEGV in that copy. Nor swift-subprocess 1.0.2: its Linux spawn closes no inherited
/// descriptor, so a long-lived child (PostgreSQL) would hold the tests' sockets open. This one
/// closes every descriptor above 2 in the child (`posix_spawn_file_actions_addclosefrom_np`).
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let id: pid_t

    private init(id: pid_t) {
        self.id = id
    }

    /// Starts `program` with `arguments`, in `directory` when given, reading standard input from
    /// the file at `input` (else `/dev/null`) and writing standard output and error to the file at
    /// `output` (else `/dev/null`; created when missing, appended to).
    public static func start(
        _ program: String, _ arguments: [String], directory: String? = nil, input: String? = nil, output: String? = nil
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try check(posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0), "open \(input ?? "/dev/null")")
        try check(
            posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644),
            "open \(output ?? "/dev/null")"
        )
        try check(posix_spawn_file_actions_adddup2(&actions, 1, 2), "dup2")
        try check(Extensions.closeFrom(&actions, 3), "closefrom")
        if let directory { try check(Extensions.changeDirectory(&actions, directory), "chdir \(directory)") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var id = pid_t()
        try check(posix_spawn(&id, program, &actions, &attributes, argv, environ), "spawn \(program)")
        return ChildProcess(id: id)
    }

    /// Runs `program` to its end; returns its exit status (128 + the signal when a signal ended it).
    public static func run(
        _ program: String, _ arguments: [String], directory: String? = nil, input: String? = nil, output: String? = nil
    ) throws -> Int32 {
        try start(program, arguments, directory: directory, input: input, output: output).waitUntilExit()
    }

    /// Whether the child has not ended yet (it is not reaped by asking).
    public var isRunning: Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(id), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        return info._sifields._sigchld.si_pid == 0
    }

    /// Blocks the calling thread until the child ends; returns its exit status (128 + the signal
    /// when a signal ended it).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(id, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Sends SIGTERM.
    public func terminate() {
        kill(id, SIGTERM)
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw ChildProcessError(description: "\(what): errno \(result)") }
    }

    /// glibc's `_np` file actions, which Swift's Glibc module does not import (they need
    /// `_GNU_SOURCE`); glibc 2.34 and later have both.
    private enum Extensions {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

        static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
            return unsafeBitCast(symbol, to: CloseFrom.self)(actions, lowest)
        }

        static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
            return path.withCString { unsafeBitCast(symbol, to: ChangeDirectory.self)(actions, $0) }
        }
    }
}

/// Why a child process could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What failed, with its errno.
    public var description: String
}
