import Foundation

/// An HTTP entity tag (RFC 9110 §8.8.3): an opaque quoted string, strong or weak (`W/`).
package struct EntityTag: Sendable, Hashable {
    /// The tag's value, without quotes.
    package let value: String
    /// Whether the tag is weak (`W/"…"`).
    package let isWeak: Bool

    /// Creates a tag.
    package init(_ value: String, weak: Bool = false) {
        self.value = value
        self.isWeak = weak
    }

    /// The strong tag of a version number, `"7"`: how view-model snapshots are tagged.
    package init(version: Int) {
        self.init(String(version))
    }

    /// The tag as a header value: `"7"` or `W/"7"`.
    package var headerValue: String { (isWeak ? "W/" : "") + "\"\(value)\"" }

    /// The version number a strong tag of ``init(version:)`` names, if it is one. Only the exact
    /// text such a tag has counts: `"007"` or `"+7"` is another tag than `"7"` (strong comparison
    /// is character by character), so it names no version.
    package var version: Int? {
        guard !isWeak, let number = Int(value), String(number) == value else { return nil }
        return number
    }

    /// Strong comparison (`If-Match`): both strong and equal.
    package func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && value == other.value
    }

    /// Weak comparison (`If-None-Match`): equal values, weak or not.
    package func matchesWeakly(_ other: EntityTag) -> Bool {
        value == other.value
    }
}

/// The value of an `If-Match` or `If-None-Match` header: `*` or a list of entity tags.
package enum EntityTagCondition: Sendable, Hashable {
    /// `*`: any current representation.
    case any
    /// A list of tags; tags that do not parse are left out, so they match nothing.
    case tags([EntityTag])

    /// Parses a header value; nil for an empty one.
    ///
    /// A value that holds no tag as it is but does once percent-decoded (`%227%22`) is read
    /// decoded: Swift's OpenAPI runtime percent-encodes header values, and a list of entity
    /// tags always starts with `"`, `W/"` or `*`, never with `%`, so nothing valid is misread.
    package init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed == "*" {
            self = .any
            return
        }
        let tags = Self.tags(in: trimmed)
        if tags.isEmpty, trimmed.contains("%"), let decoded = trimmed.removingPercentEncoding {
            if decoded.trimmingCharacters(in: .whitespaces) == "*" {
                self = .any
                return
            }
            let decodedTags = Self.tags(in: decoded)
            if !decodedTags.isEmpty {
                self = .tags(decodedTags)
                return
            }
        }
        self = .tags(tags)
    }

    /// The tags of a comma-separated list; elements that are no tag are left out.
    private static func tags(in list: String) -> [EntityTag] {
        list.split(separator: ",").compactMap { EntityTag(parsing: $0) }
    }

    /// Whether `tag` satisfies `If-Match` (strong comparison).
    package func matchesStrongly(_ tag: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.matchesStrongly(tag) }
        }
    }

    /// Whether `tag` satisfies `If-None-Match`'s list (weak comparison), i.e. the client has it.
    package func matchesWeakly(_ tag: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.matchesWeakly(tag) }
        }
    }

    /// The version numbers a strong `If-Match` list names; nil for `*` (no condition).
    package var strongVersions: Set<Int>? {
        switch self {
        case .any: nil
        case .tags(let tags): Set(tags.compactMap(\.version))
        }
    }
}

extension EntityTag {
    /// Parses one list element such as `"7"` or `W/"abc"`; nil when it is not a tag.
    init?(parsing text: Substring) {
        var rest = text.trimmingCharacters(in: .whitespaces)[...]
        let weak = rest.hasPrefix("W/")
        if weak { rest = rest.dropFirst(2) }
        guard rest.count >= 2, rest.first == "\"", rest.last == "\"" else { return nil }
        let value = rest.dropFirst().dropLast()
        guard !value.utf8.contains(UInt8(ascii: "\"")) else { return nil }
        self.init(String(value), weak: weak)
    }
}
