import BinderyClient

/// Prints one line per version: `{"version": N, "changed": {...}}`, the outputs that differ from
/// the version printed before (all of them on the first line; a removed one as null).
struct VersionPrinter {
    /// How many versions to print before returning; nil: until the versions end.
    let limit: Int?

    func print(_ versions: AsyncStream<JSONValue>) async {
        var printed = 0
        var previous: [String: JSONValue]?
        for await snapshot in versions {
            let outputs = snapshot.objectValue?["outputs"]?.objectValue ?? [:]
            var changed = outputs.filter { previous?[$0.key] != $0.value }
            for name in (previous ?? [:]).keys where outputs[name] == nil { changed[name] = .null }
            previous = outputs
            let version = snapshot.objectValue?["version"] ?? .null
            Output.line("{\"version\": \(Output.json(version)), \"changed\": \(Output.json(.object(changed)))}")
            printed += 1
            if let limit, printed >= limit { return }
        }
    }
}
