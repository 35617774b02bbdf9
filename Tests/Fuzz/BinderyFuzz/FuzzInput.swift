/// The fuzzer's bytes cut into parts at 0xFF bytes (a byte that never occurs in UTF-8, so each
/// part can still be any JSON text or header value): every check takes the parts it needs.
struct FuzzInput {
    /// The byte that separates parts.
    static let separator: UInt8 = 0xFF

    /// Up to four parts; missing ones are empty.
    let parts: [[UInt8]]

    init(_ bytes: [UInt8]) {
        let cut = bytes.split(separator: Self.separator, maxSplits: 3, omittingEmptySubsequences: false)
        parts = cut.map(Array.init) + Array(repeating: [], count: max(0, 4 - cut.count))
    }

    /// Part `index` as text (invalid UTF-8 repaired, as HTTP header values reach Bindery).
    func text(_ index: Int) -> String {
        String(decoding: parts[index], as: UTF8.self)
    }
}
