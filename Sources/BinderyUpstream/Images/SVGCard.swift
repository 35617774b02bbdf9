/// A deterministic picture for a fixture image: a card coloured from the image's name, with the
/// POI's or photo's name and a caption, and a mountain silhouette.
struct SVGCard: Equatable, Sendable {
    /// The name the colours are derived from.
    var name: String
    /// The main line: the POI's or photo's name.
    var title: String
    /// The second line: the city or the photographer.
    var caption: String
    /// The width in pixels.
    var width: Int
    /// The height in pixels.
    var height: Int

    /// The SVG document.
    func render() -> String {
        let hue = Int(fnv1a(name) % 360)
        let titleSize = fontSize(for: title, maximum: Double(height) * 0.14)
        let captionSize = fontSize(for: caption, maximum: Double(height) * 0.075)
        let w = width, h = height
        let ridge = [
            (0, 78), (18, 58), (31, 70), (47, 48), (63, 66), (78, 54), (100, 72),
        ].map { "\(w * $0.0 / 100),\(h * $0.1 / 100)" }.joined(separator: " ")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">\
            <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">\
            <stop offset="0" stop-color="hsl(\(hue), 60%, 58%)"/>\
            <stop offset="1" stop-color="hsl(\((hue + 40) % 360), 55%, 30%)"/>\
            </linearGradient></defs>\
            <rect width="\(w)" height="\(h)" fill="url(#bg)"/>\
            <polygon points="\(ridge) \(w),\(h) 0,\(h)" fill="#ffffff" fill-opacity="0.18"/>\
            <circle cx="\(w * 80 / 100)" cy="\(h * 22 / 100)" r="\(min(w, h) / 10)" fill="#ffffff" fill-opacity="0.35"/>\
            <text x="\(w / 2)" y="\(h * 46 / 100)" text-anchor="middle" font-family="\(Self.fonts)" \
            font-size="\(Int(titleSize))" font-weight="bold" fill="#ffffff">\(escaped(title))</text>\
            <text x="\(w / 2)" y="\(h * 46 / 100 + Int(titleSize * 1.3))" text-anchor="middle" \
            font-family="\(Self.fonts)" font-size="\(Int(captionSize))" fill="#ffffff" \
            fill-opacity="0.85">\(escaped(caption))</text>\
            </svg>

            """
    }

    /// The font families, with CJK fonts for the Chinese names.
    private static let fonts = "'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"

    /// The largest font size up to `maximum` at which `text` fits in 88% of the width.
    private func fontSize(for text: String, maximum: Double) -> Double {
        let ems = text.unicodeScalars.reduce(0.0) { $0 + ($1.value >= 0x2E80 ? 1.0 : 0.58) }
        guard ems > 0 else { return maximum }
        return max(6, min(maximum, Double(width) * 0.88 / ems))
    }

    /// `text` with XML's special characters escaped.
    private func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// FNV-1a of the name: a colour that is the same on every run.
    private func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
