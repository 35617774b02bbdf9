/// A snapshot with its sensitive inputs' values masked: what the store's version log keeps of a
/// view model with an input declared ``InputDeclaration/sensitive()``, and what `/versions` shows.
/// Each sensitive input's value, and any string elsewhere in the snapshot that contains it (an
/// output echoing a password), shows ``mask`` instead.
package enum SensitiveRedaction {
    /// What a masked value shows.
    package static let mask = "••••••"

    /// The members of a rendered snapshot with the values of the inputs `names` masked; nil when
    /// none of them holds anything to hide (an empty text), so the snapshot can be kept as it is.
    package static func masked(_ members: JSONValue, inputs names: [String]) -> JSONValue? {
        guard !names.isEmpty, case .object(var snapshot) = members, case .object(var inputs)? = snapshot["inputs"] else {
            return nil
        }
        var secrets: [String] = []
        var changed = false
        for name in names {
            guard let value = inputs[name], value != .string(""), value != .string(mask) else { continue }
            if case .string(let text) = value { secrets.append(text) }
            inputs[name] = .string(mask)
            changed = true
        }
        guard changed else { return nil }
        snapshot["inputs"] = .object(inputs)
        return .object(snapshot.mapValues { scrub($0, of: secrets) })
    }

    /// Encoded `snapshot` bytes with the values of the inputs `names` masked; unchanged when there
    /// is nothing to hide.
    package static func masked(_ snapshot: [UInt8], inputs names: [String]) -> [UInt8] {
        guard !names.isEmpty, let members = try? JSONValue(parsing: snapshot), let masked = masked(members, inputs: names)
        else { return snapshot }
        return JSONWriter.bytes(of: masked)
    }

    /// `value` with every string containing one of `secrets` masked there.
    private static func scrub(_ value: JSONValue, of secrets: [String]) -> JSONValue {
        switch value {
        case .string(let text) where !secrets.isEmpty:
            var scrubbed = text
            for secret in secrets where scrubbed.contains(secret) {
                scrubbed = scrubbed.replacing(secret, with: mask)
            }
            return .string(scrubbed)
        case .array(let elements): return .array(elements.map { scrub($0, of: secrets) })
        case .object(let members): return .object(members.mapValues { scrub($0, of: secrets) })
        default: return value
        }
    }
}
