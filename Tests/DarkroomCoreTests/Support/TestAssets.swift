import DarkroomCore

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
    static let svg = DataAsset(identity: AssetIdentity(path: "logo.svg", sha256: String(repeating: "1", count: 64)), bytes: Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">
          <circle cx="15" cy="15" r="12" fill="#d02020"/><rect x="22" y="4" width="14" height="22" fill="#2040d0" fill-opacity="0.6"/>
        </svg>
        """.utf8))

    func data(at path: String) throws(ParameterError) -> DataAsset {
        guard path == Self.svg.identity.path else { throw ParameterError("\(path): no such file") }
        return Self.svg
    }
}
