/// Content-Type checks used by the server's request rules.
public enum MediaType {
    /// Whether a Content-Type value names JSON: `application/json`, any `+json` suffix
    /// (`application/merge-patch+json`, `application/problem+json`), parameters allowed.
    public static func isJSON(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        let mediaType = essence.trimmingSpaces().lowercased()
        let parts = mediaType.split(separator: "/")
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        return parts[1] == "json" || (parts[1].hasSuffix("+json") && parts[1].count > 5)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
