import DarkroomCore

/// Pixels in cairo's ARGB32 form (premultiplied, 8 bits, alpha in the top byte of a native
/// `UInt32`): what the cairo, Pango and librsvg shims read and write.
enum ARGB {
    /// A premultiplied float pixel as ARGB32, rounded to nearest.
    @inline(__always) static func pack(_ p: Pixel) -> UInt32 {
        let c = (p.clamped(lowerBound: .zero, upperBound: Pixel(repeating: 1)) * 255).rounded(.toNearestOrEven)
        return UInt32(c[3]) << 24 | UInt32(c[0]) << 16 | UInt32(c[1]) << 8 | UInt32(c[2])
    }

    @inline(__always) static func unpack(_ v: UInt32) -> Pixel {
        Pixel(Float(v >> 16 & 255), Float(v >> 8 & 255), Float(v & 255), Float(v >> 24)) * (1 / 255)
    }

    /// `image` as ARGB32, row-major.
    static func pixels(of image: any ImageAsset) -> [UInt32] {
        let size = image.size
        var out = [UInt32](repeating: 0, count: size.area)
        for y in 0..<size.height { for x in 0..<size.width { out[y * size.width + x] = pack(image.pixel(x, y)) } }
        return out
    }

    /// `count` ARGB32 pixels as premultiplied float pixels.
    static func unpack(_ source: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count { out[i] = unpack(source[i]) }
    }
}

/// Pixels drawn by cairo, Pango or librsvg (a rendered SVG, a text block), held as ARGB32 and
/// read as an ``ImageAsset`` under the identity of the file or text they were drawn from.
final class RenderedImage: ImageAsset {
    let identity: AssetIdentity
    let size: Size
    let argb: [UInt32]
    let isOpaque: Bool
    let isGrey: Bool

    init(identity: AssetIdentity, size: Size, argb: [UInt32]) {
        precondition(argb.count == size.area)
        self.identity = identity
        self.size = size
        self.argb = argb
        isOpaque = argb.allSatisfy { $0 >> 24 == 255 }
        isGrey = argb.allSatisfy { ($0 >> 16 & 255) == ($0 >> 8 & 255) && ($0 >> 8 & 255) == ($0 & 255) }
    }

    var byteCount: Int { argb.count * 4 }
    func pixel(_ x: Int, _ y: Int) -> Pixel { ARGB.unpack(argb[y * size.width + x]) }
}
