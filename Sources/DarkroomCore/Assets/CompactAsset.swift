/// An ``ImageAsset`` held as a ``CompactImage``: 3 bytes a pixel for an opaque 8-bit image, 8
/// (premultiplied 16-bit RGBA) otherwise.
package final class CompactAsset: ImageAsset {
    package let identity: AssetIdentity
    package let isOpaque: Bool
    package let isGrey: Bool
    private let pixels: CompactImage

    /// Packs `image` (premultiplied float); `eightBit` says its samples had 8 bits, so an opaque
    /// one loses nothing at 3 bytes a pixel.
    package init(_ image: Image, identity: AssetIdentity, eightBit: Bool) {
        self.identity = identity
        isOpaque = image.isOpaque
        isGrey = image.pixels.allSatisfy(\.isGrey)
        pixels = CompactImage(size: image.size, layout: isOpaque && eightBit ? .rgb8 : .rgba16)
        image.pixels.withUnsafeBufferPointer { buffer in
            for y in 0..<image.height where image.width > 0 {
                pixels.store(row: y, from: buffer.baseAddress! + y * image.width, count: image.width)
            }
        }
    }

    package var size: Size { pixels.size }
    package var byteCount: Int { pixels.size.area * pixels.pixelBytes }
    package func pixel(_ x: Int, _ y: Int) -> Pixel { pixels.pixel(x, y) }
}
