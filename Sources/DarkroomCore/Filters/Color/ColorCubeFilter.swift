import Foundation

/// CIColorCube, and `.cube` LUTs: a colour lookup table, inline (`size` with `data`, as
/// CIColorCube's cubeDimension and cubeData) or from an Adobe/Resolve `.cube` file (`file`, 1-D or
/// 3-D; see ``CubeLUT``). The file is read by the asset store and parsed here when the config
/// loads, so a malformed one is a config error with its line number; its SHA-256 goes into every
/// report that uses it.
///
/// The table is a point operation like any other: it runs in the same fused pass as the colour
/// filters around it (a fused colour pass may end in a table).
struct ColorCubeFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "color_cube", displayName: "Color Cube", categories: ["color"],
        description: "Maps colours through a lookup table: inline (size and data, red fastest) or a .cube file (1-D or 3-D).",
        counterpart: "CIColorCube / vips maplut (1-D)",
        parameters: [
            ParameterDescriptor("file", .dataFile, "An Adobe/Resolve .cube LUT (LUT_1D_SIZE or LUT_3D_SIZE), relative to the config."),
            ParameterDescriptor("size", .integer, "Inline table: entries per axis.", min: 2, max: Double(CubeLUT.maxSize3D)),
            ParameterDescriptor("data", .numbers, "Inline table: size³ colours, red fastest, then green, then blue; "
                                + "RGBA (4 numbers each, as CIColorCube) or RGB (3), each 0…1."),
            ParameterDescriptor("interpolation", .choice(ColorCube.Interpolation.allCases.map(\.rawValue)),
                                "Between grid points: trilinear (CIColorCube, ImageMagick) or tetrahedral (Resolve, OCIO).",
                                default: .choice("trilinear")),
        ],
        examples: [
            "file=warm.cube",
            "file=warm.cube interpolation=tetrahedral",
            "file=curve1d.cube",
            "file=channels1d.cube",
            "size=2 data=[0,0,0,1, 1,0,0,1, 0,1,0,0.5, 1,1,0,1, 0,0,1,1, 1,0,1,1, 0,1,1,1, 1,1,1,1]",
        ])

    /// The table as a point operation.
    var operation: any PointOperation
    /// The `.cube` file's TITLE, when it has one.
    var title: String?

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        let interpolation: ColorCube.Interpolation = p.choice("interpolation")
        let hasFile = parameters.has("file"), hasSize = parameters.has("size"), hasData = parameters.has("data")
        if hasFile {
            guard !hasSize && !hasData else { throw ParameterError("give either file or size with data, not both") }
            let asset = p.data("file")
            let lut: CubeLUT
            do { lut = try Self.parsed(asset) } catch { throw ParameterError("file: \(asset.identity.path): \(error.message)") }
            operation = lut.operation(interpolation: interpolation)
            title = lut.title
            return
        }
        guard let sizeValue = parameters.number("size"), let data = parameters.numbers("data") else {
            throw ParameterError("needs file (a .cube LUT), or size with data (an inline table)")
        }
        let size = Int(sizeValue)
        let cells = size * size * size
        guard data.count == cells * 4 || data.count == cells * 3 else {
            throw ParameterError("data: size \(size) needs \(cells * 4) numbers (\(size)³ RGBA colours) or \(cells * 3) (RGB), got \(data.count)")
        }
        if let bad = data.firstIndex(where: { !(0...1).contains($0) }) {
            throw ParameterError("data: value \(bad + 1) is \(formatNumber(data[bad])), outside 0…1")
        }
        let stride = data.count / cells
        let entries = (0..<cells).map { i in
            Pixel(Float(data[i * stride]), Float(data[i * stride + 1]), Float(data[i * stride + 2]),
                  stride == 4 ? Float(data[i * stride + 3]) : 1)
        }
        operation = ColorCube(size: size, entries: entries, interpolation: interpolation)
    }

    var pointOperations: [any PointOperation] { [operation] }

    // A chain is resolved for every job: files already parsed are kept by content hash, so a
    // 64³ table is parsed once, not once per photo.
    private nonisolated(unsafe) static var cache = [String: CubeLUT]()
    private static let cacheLock = NSLock()

    private static func parsed(_ asset: DataAsset) throws(ParameterError) -> CubeLUT {
        let key = asset.identity.sha256
        cacheLock.lock()
        let held = cache[key]
        cacheLock.unlock()
        if let held { return held }
        let lut = try CubeLUT(bytes: asset.bytes)
        cacheLock.lock()
        if cache.count >= 8 { cache.removeAll() }
        cache[key] = lut
        cacheLock.unlock()
        return lut
    }
}
