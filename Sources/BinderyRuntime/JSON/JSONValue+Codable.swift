import Foundation

extension JSONValue {
    /// The JSON of any `Encodable` value (keys sorted), or nil when it does not encode.
    public init?(encoding value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let json = try? JSONValue(parsing: [UInt8](data)) else { return nil }
        self = json
    }

    /// This JSON decoded as `type`, or nil when it does not fit.
    public func decoded<Value: Decodable>(as type: Value.Type) -> Value? {
        try? JSONDecoder().decode(Value.self, from: Data(JSONWriter.bytes(of: self)))
    }
}
