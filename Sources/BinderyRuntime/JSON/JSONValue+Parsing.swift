extension JSONValue {
    /// Why a JSON text was refused by ``init(parsing:)``.
    public enum ParsingError: Error, Equatable {
        /// The text is not one valid JSON value.
        case malformed
        /// A member name appears twice in one object (named here).
        case duplicateMember(String)
    }

    /// Parses untrusted bytes (a request body) as one strict JSON text with `JSONReader`:
    /// UTF-8 only, no member name repeated in one object, no trailing comma.
    public init(parsing bytes: [UInt8]) throws(ParsingError) {
        self = try JSONReader.value(of: bytes)
    }
}
