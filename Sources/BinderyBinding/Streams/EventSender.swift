import BinderyHTTP
import BinderyRuntime
import Synchronization

/// Writes the versions of one watched view model to an event stream: whole snapshots, or JSON
/// Patch events for a stream that asked for them (`?patches=1`, and always on a stream of
/// several views).
///
/// A patch goes out only when it applies to the version this stream sent last for the view (the
/// client holds exactly that one) and is smaller than the snapshot; otherwise the snapshot does. A
/// version that changed collaborative texts is preceded by an `edits` event with the text
/// operations, so a client applies them to what its user is typing instead of replacing the text.
final class EventSender: Sendable {
    private let stream: ResponseStream
    /// Whether the stream takes patches.
    let patches: Bool
    /// The view's place in a stream of several views; nil on a view's own stream.
    private let multiplexed: (view: String, point: ResumePoint)?
    private let lastSent: Mutex<Int?>

    /// A sender to a view's own stream; `lastSent` is the version the client already holds (a
    /// resume).
    init(stream: ResponseStream, patches: Bool, lastSent: Int?) {
        self.stream = stream
        self.patches = patches
        self.multiplexed = nil
        self.lastSent = Mutex(lastSent)
    }

    /// A sender of the view `view` to a stream of several views, whose resume point is `point`.
    init(stream: ResponseStream, view: String, point: ResumePoint) {
        self.stream = stream
        self.patches = true
        self.multiplexed = (view, point)
        self.lastSent = Mutex(point.version(of: view))
    }

    /// Writes one version.
    @Sendable func send(_ snapshot: EncodedSnapshot) {
        guard let (view, point) = multiplexed else {
            var frame = snapshot.textEdits.map(EventStreams.editsFrame) ?? []
            frame += lastSent.withLock { last in
                defer { last = snapshot.version }
                if let patch = patch(of: snapshot, after: last) {
                    return EventStreams.patchFrame(version: snapshot.version, patch: patch)
                }
                return EventStreams.frame(snapshot)
            }
            stream.write(frame)
            return
        }
        // The resume point moves and the frame is written under one lock, so `id:`s go out in
        // the order the stream carries them.
        point.advance(view, to: snapshot.version) { id in
            var frame =
                snapshot.textEdits.map {
                    EventStreams.envelopeFrame(event: "edits", id: nil, view: view, member: "edits", payload: $0)
                } ?? []
            frame += lastSent.withLock { last in
                defer { last = snapshot.version }
                if let patch = patch(of: snapshot, after: last) {
                    return EventStreams.envelopeFrame(event: "patch", id: id, view: view, member: "patch", payload: patch)
                }
                return EventStreams.envelopeFrame(event: "snapshot", id: id, view: view, member: "snapshot", payload: snapshot.bytes)
            }
            stream.write(frame)
        }
    }

    /// The version's patch when it applies to `last` (what the client holds) and is smaller.
    private func patch(of snapshot: EncodedSnapshot, after last: Int?) -> [UInt8]? {
        guard patches, let patch = snapshot.patch, let base = snapshot.patchBase, base == last,
            patch.count < snapshot.bytes.count
        else { return nil }
        return patch
    }
}
