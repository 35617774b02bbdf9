extension CodingUserInfoKey {
    /// The base URL under which image names in the upstream's JSON are resolved (a `String`).
    static let upstreamImageBaseURL = CodingUserInfoKey(rawValue: "bindery.upstream.imageBaseURL")!
}

extension Decoder {
    /// Resolves an image reference from the upstream's JSON, like Mantle's URL value transformer.
    ///
    /// A bare name (`"scenic-gugong"`) becomes `<base>/<name>.svg` when the decoder carries an
    /// image base URL; absolute references (`/...`, `http://...`) and decoders without a base keep
    /// the reference unchanged.
    func imageURL(for reference: String) -> String {
        guard let base = userInfo[.upstreamImageBaseURL] as? String,
            !reference.hasPrefix("/"), !reference.contains("://")
        else {
            return reference
        }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return "\(trimmed)/\(reference).svg"
    }
}
