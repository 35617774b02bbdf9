import BinderyHTTP
import Foundation

/// Header values: `Content-Type` (is the body JSON?) and `If-Match` / `If-None-Match`.
enum HeaderChecks {
    /// Checks one header value with each parser.
    static func check(_ value: String) {
        checkMediaType(value)
        checkEntityTags(value)
    }

    private static func checkMediaType(_ value: String) {
        let accepted = MediaType.isJSON(value)
        // ASCII letter case and parameters do not matter.
        expect(MediaType.isJSON(asciiFlipped(value)) == accepted, "\(excerpt(value)): letter case changes isJSON")
        // Split by scalars, as a header is bytes: a ";" followed by a combining mark is one
        // `Character` and would not end the essence (found by this target).
        let essence =
            value.unicodeScalars.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map { String(Substring($0)) } ?? ""
        expect(
            MediaType.isJSON(essence + "; charset=utf-8") == MediaType.isJSON(essence),
            "\(excerpt(value)): a parameter changes isJSON")
        guard accepted else { return }
        // What is accepted is a media type, `type/subtype` (RFC 9110 tokens), naming JSON.
        let trimmed = essence.trimmingCharacters(in: [" ", "\t"]).lowercased()
        let parts = trimmed.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
            .map { Substring($0) }
        expect(parts.count == 2 && parts.allSatisfy(isToken), "\(excerpt(value)) is accepted as JSON but is no media type")
        expect(
            parts.last == "json" || (parts.last?.hasSuffix("+json") == true && parts.last != "+json"),
            "\(excerpt(value)) is accepted but does not name JSON")
    }

    private static func checkEntityTags(_ value: String) {
        guard let condition = EntityTagCondition(header: value) else {
            expect(value.trimmingCharacters(in: .whitespaces).isEmpty, "\(excerpt(value)) is no condition")
            return
        }
        guard case .tags(let tags) = condition else { return }
        for tag in tags {
            // A parsed tag prints as a header value that parses back to it.
            expect(EntityTagCondition(header: tag.headerValue) == .tags([tag]), "\(excerpt(tag)) does not round-trip")
            expect(condition.matchesWeakly(tag), "\(excerpt(value)) does not weakly match its own \(excerpt(tag))")
            expect(condition.matchesStrongly(tag) == !tag.isWeak, "\(excerpt(value)): strong match of its own \(excerpt(tag))")
        }
        if !tags.isEmpty {
            let printed = tags.map(\.headerValue).joined(separator: ", ")
            expect(EntityTagCondition(header: printed) == condition, "\(excerpt(value)) reprinted as \(excerpt(printed)) differs")
        }
        // The versions a write is conditioned on are exactly the tags that strongly match them.
        for version in condition.strongVersions ?? [] {
            expect(
                condition.matchesStrongly(EntityTag(version: version)),
                "\(excerpt(value)) conditions a write on version \(version), but \"\(version)\" does not match it")
        }
    }

    /// `value` with its ASCII letters' case swapped.
    private static func asciiFlipped(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: scalars.append(Unicode.Scalar(scalar.value + 32)!)
            case 0x61...0x7A: scalars.append(Unicode.Scalar(scalar.value - 32)!)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether `text` is an RFC 9110 token (one or more tchar).
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }
}
