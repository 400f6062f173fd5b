/// Places the image side by side (the Drawing chapter; Decorator's draw-as-pattern; `vips
/// replicate`): `columns` × `rows` copies, each a plain copy (`repeat`) or, in `mirror` mode,
/// every other column flipped left–right and every other row top–bottom, so the seams vanish.
struct TileFilter: RegionFilter {
    enum Mode: String, Sendable, CaseIterable { case `repeat`, mirror }

    static let descriptor = FilterDescriptor(
        name: "tile", displayName: "Tile", categories: ["geometry"],
        description: """
            columns × rows copies of the image side by side; mode: repeat (plain copies) or \
            mirror (every other copy flipped, seamless).
            """,
        counterpart: "drawAsPatternInRect / vips replicate",
        parameters: [
            ParameterDescriptor("columns", .integer, "Copies across.", default: .number(2), min: 1, max: 1000, slider: 1...8,
                                identity: .number(1)),
            ParameterDescriptor("rows", .integer, "Copies down.", default: .number(2), min: 1, max: 1000, slider: 1...8,
                                identity: .number(1)),
            ParameterDescriptor("mode", .choice(Mode.allCases.map(\.rawValue)), "repeat or mirror.", default: .choice("repeat")),
        ],
        examples: [
            "columns=3 rows=2 mode=mirror",
            "columns=2 rows=3",
        ])

    var columns, rows: Int
    var mode: Mode

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        columns = Int(p.number("columns"))
        rows = Int(p.number("rows"))
        mode = p.choice("mode", as: Mode.self)
    }

    var isIdentity: Bool { columns == 1 && rows == 1 }

    func outputSize(for input: Size) -> Size {
        Size(width: input.width.multipliedReportingOverflow(by: columns).partialValue,
             height: input.height.multipliedReportingOverflow(by: rows).partialValue)
    }

    func plan(for input: Size) -> KernelPlan {
        KernelPlan(TileKernel(inputSize: input, outputSize: outputSize(for: input), edge: mode == .mirror ? .mirror : .repeat))
    }
}

/// Output pixel (x, y) is input pixel (x, y) read with a repeating or mirroring edge; declares
/// only the input rows and columns the rectangle really reaches (all of them once it spans a tile).
/// Every row of tiles reads the whole input again, so the pipeline keeps it whole and compact
/// (8 or 3 bytes a pixel) rather than holding its float bands for the whole render.
struct TileKernel: RandomAccessKernel {
    let inputSize: Size
    let outputSize: Size
    let edge: EdgeMode

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }
    var alwaysKeepsInputWhole: Bool { true }

    /// The input indices `lo ..< hi` wraps onto, as one range.
    private func span(_ lo: Int, _ hi: Int, extent: Int) -> Range<Int> {
        guard hi > lo, extent > 0 else { return 0..<0 }
        if hi - lo >= extent { return 0..<extent }
        let indices = (lo..<hi).lazy.map { edge.index($0, extent: extent)! }
        return indices.min()!..<(indices.max()! + 1)
    }

    func inputRegions(for output: Rect) -> [Rect] {
        let xs = span(output.x, output.maxX, extent: inputSize.width), ys = span(output.y, output.maxY, extent: inputSize.height)
        return [Rect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, w = inputSize.width, h = inputSize.height
        let columns = (r.x..<r.maxX).map { edge.index($0, extent: w)! }
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y), sy = edge.index(y, extent: h)!
            var i = 0
            while i < columns.count {
                // A run of increasing columns is one copy; mirrored runs go pixel by pixel.
                var n = 1
                while i + n < columns.count, columns[i + n] == columns[i] + n { n += 1 }
                (out + i).update(from: inputs[0].pointer(columns[i], sy), count: n)
                i += n
            }
        }
    }

    func render(from input: CompactImage, into target: RegionTarget) {
        let r = target.rect, w = inputSize.width, h = inputSize.height
        let columns = (r.x..<r.maxX).map { edge.index($0, extent: w)! }
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y), sy = edge.index(y, extent: h)!
            for (i, x) in columns.enumerated() { out[i] = input.pixel(x, sy) }
        }
    }
}
