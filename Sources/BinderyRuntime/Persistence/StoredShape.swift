/// The shape stored state was written with, as the store keeps it beside the state: the
/// declaration's persisted version and the fingerprint of what persisted.
package struct StoredShape: Sendable, Hashable, CustomStringConvertible {
    /// The persisted version (1 + the number of migrations of the declaration that wrote it).
    package var version: Int
    /// The fingerprint of the members and types it persisted (``PersistedShape/fingerprint``).
    package var fingerprint: String

    /// A shape.
    package init(version: Int, fingerprint: String) {
        self.version = version
        self.fingerprint = fingerprint
    }

    /// `v2:1f0c…`.
    package var description: String { "v\(version):\(fingerprint)" }

    /// The shape `text` (`v2:1f0c…`) names; nil when it names none.
    package init?(parsing text: String) {
        guard text.hasPrefix("v"), let colon = text.firstIndex(of: ":"),
            let version = Int(text[text.index(after: text.startIndex)..<colon]), version >= 1
        else { return nil }
        self.init(version: version, fingerprint: String(text[text.index(after: colon)...]))
    }
}
