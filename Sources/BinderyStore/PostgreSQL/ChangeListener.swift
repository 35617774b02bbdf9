import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The LISTEN side of a ``PostgresStore``: one dedicated connection listening on
/// ``PostgresStore/channel`` (announcements) and on the store's own channel (other nodes' writes
/// in the spaces it holds), fanned out to every stream from ``PostgresStore/changes()``.
///
/// Started by the first stream. When the connection drops (a restart, `pg_terminate_backend`, a
/// network cut) it is opened again after a back-off that doubles from
/// ``PostgresStoreOptions/reconnectDelay`` up to ``PostgresStoreOptions/maximumReconnectDelay``,
/// and once it listens again (and `prepare` has run: the holds restored) every stream gets
/// ``StoreChange/resynchronize``.
final class ChangeListener: Sendable {
    struct State {
        var subscribers: [UUID: AsyncStream<StoreChange>.Continuation] = [:]
        var isListening = false
        var isStopped = false
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        /// How many times the connection started listening (1 after the first success).
        var listens = 0
    }

    /// What starts the payload of an announcement (a change's payload starts with a hex hash).
    static let announcementPrefix = "announce "

    private let configuration: PostgresConnection.Configuration
    private let options: PostgresStoreOptions
    /// The store's own channel, listened on besides ``PostgresStore/channel``.
    private let ownChannel: String
    /// Runs each time the connection listens, before `resynchronize`; a throw drops the connection.
    private let prepare: @Sendable () async throws -> Void
    private let state = Mutex(State())

    /// A listener on the announcements and on `ownChannel`, running `prepare` each time it starts listening.
    init(
        configuration: PostgresConnection.Configuration, ownChannel: String, options: PostgresStoreOptions,
        prepare: @escaping @Sendable () async throws -> Void
    ) {
        self.configuration = configuration
        self.ownChannel = ownChannel
        self.options = options
        self.prepare = prepare
    }

    /// How many times the connection started listening: 2 or more after a reconnect.
    var listenCount: Int {
        state.withLock { $0.listens }
    }

    /// A new stream; starts the LISTEN connection if it is not running.
    func subscribe() -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        enum Start { case stopped, running, starts }
        let start = state.withLock { state -> Start in
            guard !state.isStopped else { return .stopped }
            state.subscribers[id] = continuation
            if state.isListening { continuation.yield(.resynchronize) }
            // Started under the lock: two first subscribers once both saw no task and each
            // started a LISTEN connection, so the node got every notification twice.
            guard state.task == nil else { return .running }
            state.task = Task { await self.run() }
            return .starts
        }
        // Outside the lock: finishing runs `onTermination`, which takes it.
        if start == .stopped { continuation.finish() }
        return stream
    }

    /// Stops listening and ends every stream.
    func stop() async {
        let (task, connection, subscribers) = state.withLock { state in
            state.isStopped = true
            state.isListening = false
            defer { state.subscribers = [:] }
            return (state.task, state.connection, Array(state.subscribers.values))
        }
        task?.cancel()
        try? await connection?.close()
        await task?.value
        for subscriber in subscribers { subscriber.finish() }
    }

    private func run() async {
        var delay = options.reconnectDelay
        var attempt = 0
        while !Task.isCancelled, !state.withLock({ $0.isStopped }) {
            attempt += 1
            do {
                try await listenOnce { delay = self.options.reconnectDelay }
                options.logger.warning("Change notifications: the LISTEN connection ended")
            } catch {
                options.logger.warning(
                    "Change notifications: LISTEN connection lost or refused",
                    metadata: ["error": "\(PostgresStore.reason(for: error))", "attempt": "\(attempt)"]
                )
            }
            state.withLock { state in
                state.isListening = false
                state.connection = nil
            }
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, options.maximumReconnectDelay)
        }
    }

    /// Connects, listens, announces `resynchronize`, and forwards notifications until the
    /// connection ends.
    private func listenOnce(onListening: () -> Void) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: options.logger
        )
        let isStopped = state.withLock { state in
            state.connection = connection
            return state.isStopped
        }
        do {
            if !isStopped {
                try await connection.listen(on: PostgresStore.channel) { announcements in
                    try await connection.listen(on: ownChannel) { changes in
                        try await prepare()
                        onListening()
                        broadcast(.resynchronize)
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await self.forward(announcements) }
                            group.addTask { try await self.forward(changes) }
                            // The first to end (the connection closed) ends the other.
                            try await group.next()
                            group.cancelAll()
                        }
                    }
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    /// Sends every notification of `notifications` to the streams until it ends.
    private func forward(_ notifications: PostgresNotificationSequence) async throws {
        for try await notification in notifications {
            if notification.payload.hasPrefix(Self.announcementPrefix) {
                broadcast(.announcement(String(notification.payload.dropFirst(Self.announcementPrefix.count))))
            } else if let change = ViewModelChange(payload: notification.payload) {
                broadcast(.changed(change))
            } else {
                options.logger.warning("Change notifications: malformed payload ignored")
            }
        }
    }

    /// Sends a change to every stream; `resynchronize` also marks the feed listening.
    private func broadcast(_ change: StoreChange) {
        state.withLock { state in
            if change == .resynchronize {
                state.isListening = true
                state.listens += 1
            }
            for subscriber in state.subscribers.values {
                subscriber.yield(change)
            }
        }
    }
}
