import Foundation

/// A JSON merge patch (RFC 7396) of ``UpstreamSettings``, read and validated before anything is
/// applied: absent keys keep their value, `null` is refused (every setting is required), unknown
/// keys, wrong types and values out of range are refused with the field's path.
struct UpstreamSettingsPatch: Equatable {
    /// The new seed, if the patch has one.
    var seed: UInt64?
    /// The patches of the endpoints the patch names.
    var endpoints: [UpstreamEndpoint: EndpointSettingsPatch] = [:]

    /// Reads and validates a patch document.
    init(_ object: PatchObject) throws(SettingsPatchError) {
        for key in object.keys {
            switch key.stringValue {
            case "seed":
                seed = try object.unsigned(key, in: UpstreamSettings.seedRange)
            case "endpoints":
                let members = try PatchObject(member: key, of: object)
                for name in members.keys {
                    guard let endpoint = UpstreamEndpoint(rawValue: name.stringValue) else {
                        throw members.unknown(name, expected: UpstreamEndpoint.allCases.map(\.rawValue))
                    }
                    endpoints[endpoint] = try EndpointSettingsPatch(PatchObject(member: name, of: members))
                }
            default:
                throw object.unknown(key, expected: ["seed", "endpoints"])
            }
        }
    }

    /// Reads and validates a patch from its JSON bytes.
    static func decode(from data: Data) throws(SettingsPatchError) -> UpstreamSettingsPatch {
        do {
            return try JSONDecoder().decode(Document.self, from: data).patch
        } catch let error as SettingsPatchError {
            throw error
        } catch {
            throw SettingsPatchError(path: "", message: "the patch is not valid JSON")
        }
    }

    /// The settings with this patch applied.
    func applied(to settings: UpstreamSettings) -> UpstreamSettings {
        var result = settings
        result.seed = seed ?? settings.seed
        for (endpoint, patch) in endpoints {
            result.endpoints[endpoint] = patch.applied(to: settings.endpoint(endpoint))
        }
        return result
    }

    /// The settings this patch describes in full; refused when a field is missing.
    func complete() throws(SettingsPatchError) -> UpstreamSettings {
        guard let seed else {
            throw SettingsPatchError(path: "seed", message: "is required")
        }
        var result: [UpstreamEndpoint: EndpointSettings] = [:]
        for endpoint in UpstreamEndpoint.allCases {
            let path = "endpoints.\(endpoint.rawValue)"
            guard let patch = endpoints[endpoint] else {
                throw SettingsPatchError(path: path, message: "is required")
            }
            result[endpoint] = try patch.complete(path: path)
        }
        return UpstreamSettings(seed: seed, endpoints: result)
    }

    /// The patch as a `Decodable` document, so that `JSONDecoder` parses it.
    private struct Document: Decodable {
        /// The patch read from the document.
        var patch: UpstreamSettingsPatch

        /// Reads the document; refusals are thrown as ``SettingsPatchError``.
        init(from decoder: any Decoder) throws {
            patch = try UpstreamSettingsPatch(PatchObject(decoder: decoder, path: ""))
        }
    }
}

extension UpstreamSettings {
    /// These settings with a JSON merge patch (RFC 7396) applied, such as
    /// `{"endpoints": {"travel": {"failureRate": 1}}}`.
    ///
    /// Absent keys keep their value; `null` is refused since every setting is required. Unknown
    /// keys, wrong types, `latencyMs`/`timeoutMs` outside `0...60000` and rates outside `0...1`
    /// are refused with the field's path. A refused patch changes nothing.
    public func merging(patch: Data) throws(SettingsPatchError) -> UpstreamSettings {
        try UpstreamSettingsPatch.decode(from: patch).applied(to: self)
    }
}
