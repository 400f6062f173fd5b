@testable import DarkroomCore

/// Images for image parameters, made in memory: what the codecs' asset store hands the core,
/// without files. `stamp.png` is a 9×7 colour texture with soft alpha, `grey.png` an opaque grey
/// ramp, `wide.png` a 60×3 strip.
struct TestAssets: AssetResolver {
    static let images: [String: any ImageAsset] = [
        "stamp.png": asset("stamp.png", Image(width: 9, height: 7) { x, y in
            Pixel(Float(x) / 8, 0.3, Float(y) / 6, 0.2 + 0.8 * Float((x + y) % 4) / 3).premultiplied
        }),
        "grey.png": asset("grey.png", Image(width: 12, height: 12) { x, y in Pixel(repeating: Float(x + y) / 22) + Pixel(0, 0, 0, 1 - Float(x + y) / 22) }),
        "wide.png": asset("wide.png", Image(width: 60, height: 3) { x, _ in Pixel(Float(x % 7) / 6, 0.5, 0.1, 1) }),
    ]

    private static func asset(_ name: String, _ image: Image) -> any ImageAsset {
        CompactAsset(image, identity: AssetIdentity(path: name, sha256: String(repeating: "0", count: 64)), eightBit: false)
    }

    func image(at path: String) throws(ParameterError) -> any ImageAsset {
        guard let image = Self.images[path] else { throw ParameterError("\(path): no such file") }
        return image
    }

    /// An SVG logo (a red disc and a blue bar, 40×30), for filters that take a graphic.
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">
          <circle cx="15" cy="15" r="12" fill="#d02020"/><rect x="22" y="4" width="14" height="22" fill="#2040d0" fill-opacity="0.6"/>
        </svg>
        """

    /// `.cube` LUTs written from the format's description: `warm.cube` a 5³ table of a warm cast,
    /// `curve1d.cube` a 1-D curve alike on R, G, B, `channels1d.cube` a 1-D table whose columns differ;
    /// and `logo.svg` (``svg``).
    static let data: [String: String] = [
        "warm.cube": CubeText.threeD(size: 5) { SIMD3($0.x * 0.9 + 0.1, $0.y, $0.z * 0.8) },
        "curve1d.cube": CubeText.oneD(size: 7) { v in SIMD3(repeating: v * v) },
        "channels1d.cube": CubeText.oneD(size: 4) { v in SIMD3(v, 1 - v, v * 0.5) },
        "logo.svg": svg,
    ]

    /// `logo.svg` as an SVG document, the rest as images.
    func graphic(at path: String) throws(ParameterError) -> GraphicAsset {
        path.hasSuffix(".svg") ? .svg(try data(at: path)) : .image(try image(at: path))
    }

    func data(at path: String) throws(ParameterError) -> DataAsset {
        guard let text = Self.data[path] else { throw ParameterError("\(path): no such file") }
        return DataAsset(identity: AssetIdentity(path: path, sha256: String(repeating: "1", count: 64)), bytes: Array(text.utf8))
    }
}
