import BinderyRuntime
import BinderyTestSupport
import BinderyUpstream
import Clocks
import Foundation
import Synchronization
import Testing

/// A fake upstream on a test clock: every endpoint answers after one second, without failures,
/// unless `endpoints` says otherwise.
func makeTestUpstream(
    _ endpoints: [UpstreamEndpoint: EndpointSettings] = [:], seed: UInt64 = 42
) -> (UpstreamProvider, CountingClock) {
    let clock = CountingClock()
    let upstream = UpstreamProvider(settings: UpstreamSettings(seed: seed, endpoints: endpoints), clock: clock)
    return (upstream, clock)
}

/// Whether `error` is `ViewModelError.invalidArgument` for `command`.
func isInvalidArgument(_ error: any Error, command: String) -> Bool {
    if case .invalidArgument(command: command, _)? = error as? ViewModelError { return true }
    return false
}

/// The snapshots a graph sends to a watcher.
typealias ListSnapshotRecorder = Recorder<EncodedSnapshot>

extension Recorder where Value == EncodedSnapshot {
    /// The snapshots received so far.
    var received: [EncodedSnapshot] { values }
}

extension EncodedSnapshot {
    /// The snapshot decoded back into JSON.
    func decoded() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// `outputs[name]` of the decoded snapshot.
    func output(_ name: String) throws -> JSONValue? {
        try decoded().objectValue?["outputs"]?.objectValue?[name]
    }
}
