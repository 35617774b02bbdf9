import Foundation

extension JSONValue {
    /// Why a JSON text was refused by ``init(parsing:)``.
    package enum ParsingError: Error, Equatable {
        /// The text is not one valid JSON value.
        case malformed
        /// A member name appears twice in one object (named here).
        case duplicateMember(String)
    }

    /// Parses untrusted bytes (a request body) as one JSON value, refusing a text in which a
    /// member name is repeated in one object (Foundation would keep one of the values silently)
    /// and one with a trailing comma (which Foundation accepts).
    ///
    /// The text must be UTF-8 (RFC 8259 §8.1). Foundation also reads UTF-16 and UTF-32, which the
    /// byte scan for duplicates cannot follow (`{"\u0061":1,"a":2}` in UTF-16 went through); every
    /// such text has NUL bytes (its ASCII punctuation), and no UTF-8 JSON text has one.
    package init(parsing bytes: [UInt8]) throws(ParsingError) {
        guard !bytes.contains(0) else { throw .malformed }
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw .malformed
        }
        // Foundation's decoder accepts a trailing comma; RFC 8259 does not.
        if TrailingComma.isPresent(in: bytes) { throw .malformed }
        if let name = DuplicateMembers.first(in: bytes) { throw .duplicateMember(name) }
    }
}
