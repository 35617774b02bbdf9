/// Finds a trailing comma in a JSON text (`{"a": 1,}`, `[1,]`): RFC 8259 has none, but
/// Foundation's decoder accepts one, so Bindery looks for it itself (found by `bindery-fuzz`).
enum TrailingComma {
    /// Whether a "," comes right before a "}" or "]" (whitespace aside), outside strings.
    static func isPresent(in json: [UInt8]) -> Bool {
        var previous: UInt8 = 0
        var index = 0
        while index < json.count {
            let byte = json[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                while index < json.count {
                    let character = json[index]
                    index += 1
                    if character == UInt8(ascii: "\\") {
                        index += 1
                    } else if character == UInt8(ascii: "\"") {
                        break
                    }
                }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if previous == UInt8(ascii: ",") { return true }
            default:
                break
            }
            previous = byte
        }
        return false
    }
}
