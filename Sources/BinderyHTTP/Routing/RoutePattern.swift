/// A parsed route pattern such as `/upstream/images/{name}` or `/api/views/{rest...}`.
struct RoutePattern: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        /// Captures the remaining segments, slashes included; only valid last.
        case rest(String)
    }

    let text: String
    let segments: [Segment]

    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern must start with '/': \(text)")
        self.text = text
        var parsed: [Segment] = []
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() where !(parts.count == 1 && part.isEmpty) {
            if part.hasPrefix("{") && part.hasSuffix("...}") {
                precondition(index == parts.count - 1, "{name...} must be the last segment: \(text)")
                parsed.append(.rest(String(part.dropFirst().dropLast(4))))
            } else if part.hasPrefix("{") && part.hasSuffix("}") {
                parsed.append(.parameter(String(part.dropFirst().dropLast())))
            } else {
                parsed.append(.literal(String(part)))
            }
        }
        segments = parsed
    }

    /// The literal first segment, if the pattern starts with one (routers index routes by it).
    var firstLiteral: String? {
        if case .literal(let literal)? = segments.first { literal } else { nil }
    }

    /// Whether `pathSegments` match, without capturing anything (no allocation).
    func matches(_ pathSegments: [String]) -> Bool {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let literal):
                guard index < pathSegments.count, pathSegments[index] == literal else { return false }
            case .parameter:
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return false }
            case .rest:
                // As in `match`: the rest, joined with slashes, must not be empty.
                return pathSegments.count > index + 1 || (index < pathSegments.count && !pathSegments[index].isEmpty)
            }
        }
        return pathSegments.count == segments.count
    }

    /// The captured parameters when `pathSegments` (already percent-decoded) match, else nil.
    func match(_ pathSegments: [String]) -> RouteCaptures? {
        var captures = RouteCaptures.none
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let literal):
                guard index < pathSegments.count, pathSegments[index] == literal else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
                captures.add(name, pathSegments[index])
            case .rest(let name):
                guard index < pathSegments.count else { return nil }
                // One remaining segment (`/api/views/form`) is the rest as it is: nothing to join.
                let rest =
                    index == pathSegments.count - 1
                    ? pathSegments[index] : pathSegments[index...].joined(separator: "/")
                guard !rest.isEmpty else { return nil }
                captures.add(name, rest)
                return captures
            }
        }
        return pathSegments.count == segments.count ? captures : nil
    }
}
