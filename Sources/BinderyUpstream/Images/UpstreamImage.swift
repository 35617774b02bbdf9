import Foundation

/// An image served by the fake upstream: a generated SVG card.
public struct UpstreamImage: Sendable, Equatable, Hashable {
    /// The image's name, as in the fixtures (`"scenic-gugong"`), without `.svg`.
    public var name: String
    /// The media type of ``data``: `image/svg+xml`.
    public var contentType: String
    /// The image's bytes (UTF-8 SVG).
    public var data: Data
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates an image.
    public init(name: String, contentType: String = "image/svg+xml", data: Data, width: Int, height: Int) {
        self.name = name
        self.contentType = contentType
        self.data = data
        self.width = width
        self.height = height
    }
}
