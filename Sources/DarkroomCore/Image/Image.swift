/// A raster image in memory: RGBA, premultiplied, 32-bit float per channel, rows top to bottom.
///
/// A value type (copy-on-write through the array), so stages hand images to each other without
/// shared mutable state. The core keeps no file or colour-profile knowledge; codecs convert
/// to and from this form.
public struct Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height` pixels in row-major order.
    public var pixels: [Pixel]

    /// An image filled with one (premultiplied) pixel value.
    public init(width: Int, height: Int, fill: Pixel = .zero) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        self.width = width
        self.height = height
        self.pixels = Array(repeating: fill, count: width * height)
    }

    /// An image over existing pixels; `pixels.count` must be `width × height`.
    public init(width: Int, height: Int, pixels: [Pixel]) {
        precondition(pixels.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image whose pixels come from a function of (x, y).
    public init(width: Int, height: Int, generator: (Int, Int) -> Pixel) {
        var px = [Pixel]()
        px.reserveCapacity(width * height)
        for y in 0..<height { for x in 0..<width { px.append(generator(x, y)) } }
        self.init(width: width, height: height, pixels: px)
    }

    public var size: Size { Size(width: width, height: height) }
    var bounds: Rect { Rect(size: size) }

    public subscript(x: Int, y: Int) -> Pixel {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// True when every pixel is fully opaque; encoders then drop the alpha channel.
    public var isOpaque: Bool { pixels.allSatisfy { $0[3] >= 1 } }
}
