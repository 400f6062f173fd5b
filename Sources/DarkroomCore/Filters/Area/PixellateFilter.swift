import Foundation

/// CIPixellate: the image as square cells `scale` pixels wide, each filled with the colour of
/// the pixel at its centre. The grid is laid so that one cell is centred on `center`.
struct PixellateFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "pixellate", displayName: "Pixellate", categories: ["stylize"],
        description: "Makes the image blocky: square cells scale pixels wide, each the colour of its centre pixel; "
            + "one cell is centred on center.",
        counterpart: "CIPixellate",
        parameters: [
            ParameterDescriptor("scale", .scalar, "Width of a cell in pixels.",
                                default: .number(8), min: 1, max: 10000, slider: 1...100, identity: .number(1), unit: "px"),
            ParameterDescriptor("center", .point, "Centre of one cell, in px or % of the size.",
                                default: .point(Length(50, percent: true), Length(50, percent: true)), unit: "px"),
        ])

    let scale: Double
    let center: (x: Length, y: Length)

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        scale = p.number("scale")
        let c = p.point("center")
        center = (c.0, c.1)
    }

    var isIdentity: Bool { scale == 1 && center.x.value.truncatingRemainder(dividingBy: 1) == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        KernelPlan(PixellateKernel(size: input, scale: scale,
                                   center: (center.x.pixels(of: input.width), center.y.pixels(of: input.height))))
    }
}

struct PixellateKernel: PixelKernel {
    let size: Size
    let scale: Double
    let center: (x: Double, y: Double)

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    /// The pixel whose colour output column (or row) `i` takes: its cell's centre, inside the image.
    func source(_ i: Int, centre c: Double, extent: Int) -> Int {
        let cell = ((Double(i) + 0.5 - c) / scale + 0.5).rounded(.down)
        return min(max(Int((c + cell * scale).rounded(.down)), 0), extent - 1)
    }

    func inputRegions(for output: Rect) -> [Rect] {
        guard !output.isEmpty else { return [output] }
        // Sources grow with the output coordinate, so the ends give the range.
        let x0 = source(output.x, centre: center.x, extent: size.width), x1 = source(output.maxX - 1, centre: center.x, extent: size.width)
        let y0 = source(output.y, centre: center.y, extent: size.height), y1 = source(output.maxY - 1, centre: center.y, extent: size.height)
        return [Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let columns = (r.x..<r.maxX).map { source($0, centre: center.x, extent: size.width) }
        for y in r.y..<r.maxY {
            let row = inputs[0].pointer(columns[0], source(y, centre: center.y, extent: size.height)) - columns[0]
            let out = target.pointer(r.x, y)
            for x in 0..<r.width { out[x] = row[columns[x]] }
        }
    }
}
