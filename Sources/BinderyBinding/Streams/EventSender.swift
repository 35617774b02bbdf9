import BinderyHTTP
import BinderyRuntime
import Synchronization

/// Writes the versions of one watched view model to its event stream: whole snapshots, or JSON
/// Patch events for a stream that asked for them (`?patches=1`).
///
/// A patch goes out only when it applies to the version this stream sent last (the client holds
/// exactly that one) and is smaller than the snapshot; otherwise the snapshot does. A version that
/// changed collaborative texts is preceded by an `edits` event with the text operations, so a
/// client applies them to what its user is typing instead of replacing the text.
final class EventSender: Sendable {
    private let stream: ResponseStream
    /// Whether the stream takes patches.
    let patches: Bool
    private let lastSent: Mutex<Int?>

    /// A sender to `stream`; `lastSent` is the version the client already holds (a resume).
    init(stream: ResponseStream, patches: Bool, lastSent: Int?) {
        self.stream = stream
        self.patches = patches
        self.lastSent = Mutex(lastSent)
    }

    /// Writes one version.
    @Sendable func send(_ snapshot: EncodedSnapshot) {
        var frame = snapshot.textEdits.map(EventStreams.editsFrame) ?? []
        lastSent.withLock { last in
            defer { last = snapshot.version }
            if patches, let patch = snapshot.patch, let base = snapshot.patchBase, base == last,
                patch.count < snapshot.bytes.count
            {
                frame += EventStreams.patchFrame(version: snapshot.version, patch: patch)
            } else {
                frame += EventStreams.frame(snapshot)
            }
        }
        stream.write(frame)
    }
}
