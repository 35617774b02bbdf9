import Foundation
import Logging
import PostgresNIO

/// Consecutive view-model operations of one transaction, sent as one `bindery_apply_writes`
/// statement (arrays, one element per write; see PostgresStore+WriteFunctions.swift), and the
/// outcome of each operation read back from its row.
struct PostgresWriteBatch {
    /// The SQLSTATE class of a refusal raised by `bindery_apply_write`.
    static let refusalClass = "BD"

    /// One caller's writes, applied together or not at all, and how to write them.
    struct Operation: Sendable {
        /// In key order (versions of one key in their order).
        var writes: [ViewModelWrite]
        var context: PostgresStore.WriteContext
    }

    let operations: [Operation]

    /// Applies the operations on `connection` inside its open transaction; one outcome per
    /// operation (`acknowledge[i]` for the applied ones). With `careful` false the first refusal
    /// throws (aborting the transaction) instead of being confined to its operation.
    func apply(
        careful: Bool, acknowledge: [@Sendable () -> Void], on connection: PostgresConnection, logger: Logger
    ) async throws -> [WriteOutcome] {
        var ops: [Int] = [], writes: [ViewModelWrite] = [], contexts: [PostgresStore.WriteContext] = []
        for (index, operation) in operations.enumerated() {
            for write in operation.writes {
                ops.append(index)
                writes.append(write)
                contexts.append(operation.context)
            }
        }
        let channel = operations.first?.context.ownChannel ?? ""
        let sessions: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.key.session.bytes) }
        let paths: [String] = writes.map(\.key.path)
        let versions: [Int] = writes.map(\.version)
        let hasExpected: [Bool] = writes.map { $0.expected != nil }
        let expected: [Int] = writes.map { $0.expected ?? 0 }
        let states: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.state) }
        let hasShape: [Bool] = writes.map { $0.shape != nil }
        let shapes: [String] = writes.map { $0.shape ?? "" }
        let logged: [Bool] = writes.map { $0.snapshot != nil }
        let snapshots: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.snapshot ?? Data()) }
        let hasCommand: [Bool] = writes.map { $0.runningCommand != nil }
        let commandNames: [String] = writes.map { $0.runningCommand?.name ?? "" }
        let commandStarts: [Double] = writes.map { $0.runningCommand?.startedAt.storeValue ?? 0 }
        let times: [Double] = writes.map(\.at.storeValue)
        let touchBefore: [Double] = writes.map { $0.at.storeValue - StoredSession.writeUseGranularity }
        var cutoffs: [Double] = [], droppedByCount: [Int] = [], payloads: [String] = []
        for (write, context) in zip(writes, contexts) {
            cutoffs.append(write.at.addingTimeInterval(-context.policy.maxAge).storeValue)
            droppedByCount.append(context.policy.highestVersionDroppedByCount(newest: write.version))
            payloads.append(ViewModelChange(key: write.key, version: write.version, node: context.nodeID).payload)
        }
        let hasClaim: [Bool] = writes.map { $0.claim != nil }
        let claimSessions: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.claim?.session.bytes ?? Data()) }
        let claimKeys: [String] = writes.map { $0.claim?.key ?? "" }
        let fingerprints: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.claim?.fingerprint ?? Data()) }
        let attempts: [ByteBuffer] = writes.map { ByteBuffer(bytes: $0.claim?.attempt ?? Data()) }
        let claimTimes: [Double] = writes.map { $0.claim?.at.storeValue ?? 0 }
        let expiredBefore: [Double] = writes.map { $0.claim?.expiredBefore.storeValue ?? 0 }
        let rows = try await connection.query(
            """
            SELECT out_op, out_failed, out_state, out_message FROM bindery_apply_writes(
                \(careful), \(channel), \(ops), \(sessions), \(paths), \(versions), \(hasExpected), \(expected), \(states),
                \(hasShape), \(shapes), \(logged), \(snapshots), \(hasCommand), \(commandNames), \(commandStarts), \(times),
                \(touchBefore), \(cutoffs), \(droppedByCount), \(payloads), \(hasClaim), \(claimSessions), \(claimKeys),
                \(fingerprints), \(attempts), \(claimTimes), \(expiredBefore)
            )
            """,
            logger: logger
        )
        var outcomes: [WriteOutcome] = []
        for try await (index, failed, state, message) in rows.decode((Int, Int?, String?, String?).self) {
            guard let state else {
                outcomes.append(.applied(acknowledge: acknowledge[index]))
                continue
            }
            let write = failed.map { writes[$0 - 1] } ?? operations[index].writes[0]
            outcomes.append(.refused(Self.refusal(state: state, message: message ?? "", of: write)))
        }
        guard outcomes.count == operations.count else {
            throw StoreError.unavailable(reason: "bindery_apply_writes answered \(outcomes.count) of \(operations.count) operations")
        }
        return outcomes
    }

    /// The store error of a refused write: `BDR0n` as the functions raise them, anything else as
    /// PostgreSQL's message and SQLSTATE (as a refused statement of the savepoint path reads).
    static func refusal(state: String, message: String, of write: ViewModelWrite) -> StoreError {
        switch state {
        case "BDR01": .sessionNotFound(write.key.session)
        case "BDR02": .conflict(write.key, expected: write.expected, stored: Int(message))
        case "BDR03": .versionNotIncreasing(write.key, expected: write.expected, version: write.version)
        case "BDR04": .keyClaimed(key: write.claim?.key ?? "")
        default: .unavailable(reason: "\(message) (SQLSTATE \(state))")
        }
    }
}
