@testable import DarkroomCore
import DarkroomDrawing
import Foundation

/// In-memory files for drawing tests: images by name and SVG documents by name.
struct DrawingAssets: AssetResolver {
    var images: [String: any ImageAsset] = [:]
    var documents: [String: String] = [:]

    func image(at path: String) throws(ParameterError) -> any ImageAsset {
        guard let image = images[path] else { throw ParameterError("\(path): no such file") }
        return image
    }

    func data(at path: String) throws(ParameterError) -> DataAsset {
        guard let text = documents[path] else { throw ParameterError("\(path): no such file") }
        return DataAsset(identity: AssetIdentity(path: path, sha256: String(repeating: "0", count: 64)), bytes: Array(text.utf8))
    }

    /// Every document is an SVG document here.
    func graphic(at path: String) throws(ParameterError) -> GraphicAsset {
        documents[path] == nil ? .image(try image(at: path)) : .svg(try data(at: path))
    }

    static func asset(_ name: String, _ image: Image) -> any ImageAsset {
        CompactAsset(image, identity: AssetIdentity(path: name, sha256: String(repeating: "0", count: 64)), eightBit: false)
    }
}

/// The one filter of `text` (chain syntax), built with the shipped registry.
func drawingFilter(_ text: String, assets: DrawingAssets = DrawingAssets()) throws -> any RegionFilter {
    let resolved = try ChainSyntax.parse(text, registry: .shipped, assets: assets).resolve(seed: 1)
    guard let filter = resolved.first?.filter as? any RegionFilter else { throw ParameterError("\(text): not a region filter") }
    return filter
}

/// Renders `text` over `image` through the streaming pipeline in 7-row strips on two threads.
func draw(_ text: String, on image: Image, assets: DrawingAssets = DrawingAssets()) throws -> Image {
    try drawingFilter(text, assets: assets).apply(to: image, executor: StripExecutor(bandHeight: 7, concurrency: 2))
}

/// Smooth colour with hashed noise and a sharp edge: asymmetric, so a misplaced layer shows.
func testTexture(_ width: Int, _ height: Int, alpha: Bool = false) -> Image {
    Image(width: width, height: height) { x, y in
        var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
        hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
        let noise = Float(hash & 0xFFFF) / 65535
        let a: Float = alpha ? 0.3 + 0.7 * Float((x + 2 * y) % 5) / 4 : 1
        return Pixel(Float(x) / Float(max(width, 1)), x * 3 + y > width ? 0.8 : 0.1, 0.3 + 0.5 * noise, a).premultiplied
    }
}

/// The largest difference of any channel between two equally sized images, in 1/255 steps.
func worstDifference(_ a: Image, _ b: Image, in region: Rect? = nil) -> Float {
    precondition(a.size == b.size)
    let r = region ?? a.bounds
    var worst: Float = 0
    for y in r.y..<r.maxY { for x in r.x..<r.maxX {
        let d = (a[x, y] - b[x, y]).replacing(with: -(a[x, y] - b[x, y]), where: a[x, y] .< b[x, y])
        worst = max(worst, d.max())
    } }
    return worst * 255
}
