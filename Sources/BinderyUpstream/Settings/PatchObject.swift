/// One JSON object of a settings patch, read member by member with the member's dotted path,
/// so that every refusal names the field (`endpoints.travel.failureRate`).
struct PatchObject {
    /// The object's members.
    private let container: KeyedDecodingContainer<AnyCodingKey>
    /// The object's own dotted path; empty for the document.
    let path: String

    /// Reads the decoder's value as an object.
    init(decoder: any Decoder, path: String) throws(SettingsPatchError) {
        do {
            container = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            throw SettingsPatchError(path: path, message: "must be a JSON object")
        }
        self.path = path
    }

    /// Reads the member `key` of `parent` as an object.
    init(member key: AnyCodingKey, of parent: PatchObject) throws(SettingsPatchError) {
        let path = parent.path(of: key)
        try parent.rejectNull(key)
        do {
            container = try parent.container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
        } catch {
            throw SettingsPatchError(path: path, message: "must be a JSON object")
        }
        self.path = path
    }

    /// The object's keys, sorted so that the first refusal is always the same one.
    var keys: [AnyCodingKey] {
        container.allKeys.sorted { $0.stringValue < $1.stringValue }
    }

    /// The dotted path of a member.
    func path(of key: AnyCodingKey) -> String {
        path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)"
    }

    /// Refuses the member `key`, which this object does not know.
    func unknown(_ key: AnyCodingKey, expected: [String]) -> SettingsPatchError {
        SettingsPatchError(
            path: path(of: key),
            message: "unknown key; expected one of \(expected.joined(separator: ", "))"
        )
    }

    /// Reads the member `key` as an integer in `range`.
    func integer(_ key: AnyCodingKey, in range: ClosedRange<Int>, unit: String) throws(SettingsPatchError) -> Int {
        try rejectNull(key)
        let message = "must be an integer from \(range.lowerBound) to \(range.upperBound) \(unit)"
        guard let value = try? container.decode(Int.self, forKey: key) else {
            throw SettingsPatchError(path: path(of: key), message: message)
        }
        guard range.contains(value) else {
            throw SettingsPatchError(path: path(of: key), message: "\(message), got \(value)")
        }
        return value
    }

    /// Reads the member `key` as a number in `range`.
    func number(_ key: AnyCodingKey, in range: ClosedRange<Double>) throws(SettingsPatchError) -> Double {
        try rejectNull(key)
        let message = "must be a number from \(range.lowerBound.formatted) to \(range.upperBound.formatted)"
        guard let value = try? container.decode(Double.self, forKey: key) else {
            throw SettingsPatchError(path: path(of: key), message: message)
        }
        guard range.contains(value) else {
            throw SettingsPatchError(path: path(of: key), message: "\(message), got \(value.formatted)")
        }
        return value
    }

    /// Reads the member `key` as an unsigned integer in `range`.
    func unsigned(_ key: AnyCodingKey, in range: ClosedRange<UInt64>) throws(SettingsPatchError) -> UInt64 {
        try rejectNull(key)
        guard let value = try? container.decode(UInt64.self, forKey: key), range.contains(value) else {
            throw SettingsPatchError(
                path: path(of: key), message: "must be an integer from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return value
    }

    /// Refuses `null`: every setting is required, so a patch cannot remove one.
    private func rejectNull(_ key: AnyCodingKey) throws(SettingsPatchError) {
        if (try? container.decodeNil(forKey: key)) == true {
            throw SettingsPatchError(
                path: path(of: key), message: "must not be null: every setting is required"
            )
        }
    }
}

private extension Double {
    /// `0`, `1`, `0.25`: a rate as a person writes it.
    var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
