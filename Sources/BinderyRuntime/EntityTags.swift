import Foundation

/// Conditional-request checks against a snapshot's entity tag.
enum EntityTags {
    /// Refuses a write whose `If-Match` names none of the current version's tags (`*` matches any).
    static func check(_ ifMatch: String?, against snapshot: EncodedSnapshot) throws(ViewModelError) {
        guard let ifMatch else { return }
        let tags = ifMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if tags.contains("*") || tags.contains(snapshot.etag) || tags.contains("W/\(snapshot.etag)") { return }
        throw .versionMismatch(expected: ifMatch, current: snapshot.version)
    }
}
