/// A settings patch (or settings document) that was refused, naming the failing field.
///
/// Nothing of a refused patch is applied.
public struct SettingsPatchError: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The dotted path of the failing field (`"endpoints.travel.failureRate"`); empty for the
    /// document itself.
    public var path: String
    /// What is wrong, for a person (`"must be between 0 and 1, got 1.5"`).
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `"endpoints.travel.failureRate: must be between 0 and 1, got 1.5"`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension SettingsPatchError {
    /// This error as a `DecodingError`, for `Decodable` initialisers.
    func decodingError(codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath, debugDescription: description, underlyingError: self
            ))
    }
}

extension Error {
    /// A `SettingsPatchError` as a `DecodingError`; any other error unchanged.
    func asDecodingError(codingPath: [any CodingKey]) -> any Error {
        (self as? SettingsPatchError)?.decodingError(codingPath: codingPath) ?? self
    }
}
