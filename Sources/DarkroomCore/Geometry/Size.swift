/// A width and height in pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Number of pixels, as used by the `max_pixels` limit.
    public var area: Int { width * height }

    public var description: String { "\(width)×\(height)" }
}
