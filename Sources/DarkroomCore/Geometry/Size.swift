/// A width and height in pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Number of pixels, as used by the `max_pixels` limit; `Int.max` when the product overflows
    /// (a size computed from absurd parameters must still compare as too large, not trap).
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    public var description: String { "\(width)×\(height)" }
}
