import Foundation

/// Finds a member name repeated in one object of a JSON text. Foundation's decoder keeps one of
/// the values silently; Bindery refuses such a body instead (which value wins differs between
/// parsers, a classic way to make two components disagree about one request).
enum DuplicateMembers {
    /// The first member name that appears twice in one object of `json`, which must already be
    /// known to be valid JSON; nil when there is none.
    static func first(in json: [UInt8]) -> String? {
        // One entry per open container: its member names so far (nil for an array) and whether
        // the next string is a member name.
        var containers: [(names: Set<String>?, expectsName: Bool)] = []
        var index = 0
        while index < json.count {
            let byte = json[index]
            index += 1
            switch byte {
            case UInt8(ascii: "{"): containers.append(([], true))
            case UInt8(ascii: "["): containers.append((nil, false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = containers.popLast()
            case UInt8(ascii: ","):
                if containers.last?.names != nil { containers[containers.count - 1].expectsName = true }
            case UInt8(ascii: "\""):
                let start = index - 1
                var escaped = false
                while index < json.count {
                    let character = json[index]
                    index += 1
                    if character == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1
                    } else if character == UInt8(ascii: "\"") {
                        break
                    }
                }
                guard let last = containers.indices.last, containers[last].names != nil, containers[last].expectsName
                else { continue }
                containers[last].expectsName = false
                let token = json[start..<min(index, json.count)]
                let name = escaped
                    ? (try? JSONDecoder().decode(String.self, from: Data(token))) ?? ""
                    : String(decoding: token.dropFirst().dropLast(), as: UTF8.self)
                if containers[last].names?.insert(name).inserted == false { return name }
            default:
                continue
            }
        }
        return nil
    }
}
