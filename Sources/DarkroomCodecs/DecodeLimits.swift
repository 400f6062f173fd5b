/// Bounds checked before a decode allocates anything large: a tiny file can declare a huge image.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest `width × height` as declared in the file header.
    public var maxPixels: Int
    /// Largest file, in bytes.
    public var maxFileBytes: Int

    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
    }
}
