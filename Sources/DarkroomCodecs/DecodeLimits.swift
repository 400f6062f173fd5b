/// Bounds checked before a decode allocates anything large: a tiny file can declare a huge image.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest `width × height` as declared in the file header.
    public var maxPixels: Int
    /// Largest file read into memory, in bytes (see ``maxBytes(inPlace:)``).
    public var maxFileBytes: Int

    /// How many times `maxFileBytes` a file read in place (a TIFF) may be: 4 GiB with the
    /// default, classic TIFF's own ceiling. Read strip by strip, its size costs no memory;
    /// `maxPixels` bounds its decode, and this bounds the reading time of a file that is
    /// mostly not pixels.
    public static let inPlaceFactor = 16

    /// The largest file of one kind: read into memory, or in place.
    public func maxBytes(inPlace: Bool) -> Int {
        guard inPlace else { return maxFileBytes }
        let (product, overflow) = maxFileBytes.multipliedReportingOverflow(by: Self.inPlaceFactor)
        return overflow ? Int.max : product
    }

    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }
}
