import CDarkroomKernels

/// A median filter (`vips rank` at the middle index; ImageMagick `-statistic Median`): each
/// channel of each pixel becomes the median of that channel over the (2·radius + 1)² square
/// around it, edges extended. It removes salt-and-pepper noise and keeps edges where a blur
/// would smear them.
///
/// Channels are taken one by one, as vips does, on premultiplied values (the same as straight
/// colour where the image is opaque). Radius 1 (3×3) runs a 19-comparison sorting network on
/// all four channels at once (in C, `dr_median3_row`); larger squares slide a histogram along
/// the row, 256 bins on 8-bit samples as decoded (`dr_median_rgb8_row`); on float ones a bit
/// for each sample's place in the block's sorted order (`dr_median_float`).
struct MedianFilter: RegionFilter {
    /// 21×21 is 441 values a channel: far into "use a blur" territory, and each costs a selection.
    static let maximumRadius = 10.0

    static let descriptor = FilterDescriptor(
        name: "median", displayName: "Median", categories: ["blur", "stylize"],
        description: "Replaces each channel by its median over the (2·radius + 1)² square around the pixel "
            + "(3×3 for radius 1); removes specks and keeps edges.",
        counterpart: "vips rank / CIMedianFilter (3×3)",
        parameters: [
            ParameterDescriptor("radius", .integer, "Pixels each side of the centre the square reaches.",
                                default: .number(1), min: 0, max: maximumRadius, slider: 1...5, identity: .number(0), unit: "px"),
        ])

    let radius: Int

    init(parameters: ResolvedParameters) {
        radius = Int(Self.described(parameters).number("radius"))
    }

    var isIdentity: Bool { radius == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(MedianKernel(size: input, radius: radius)) }
}

struct MedianKernel: RGB8InputKernel {
    let size: Size
    let radius: Int

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: radius)] }

    /// Wider squares read an opaque 8-bit source as decoded (a histogram per channel); the
    /// 3×3 network on float is faster than a histogram whose median jumps across bins.
    var acceptsRGB8Input: Bool { radius >= 2 }

    func render(rgb8 view: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect, v = view.rect
        for y in r.y..<r.maxY {
            // Rows past the top and bottom repeat the edge rows (the view holds only the image's).
            let rows = (-radius...radius).map { dy in Optional(view.pointer(v.x, min(max(y + dy, v.y), v.maxY - 1))) }
            dr_median_rgb8_row(rows, Int32(radius), Int32(v.x), Int32(v.width), Int32(r.x), Int32(r.width),
                               UnsafeMutableRawPointer(target.pointer(r.x, y)).assumingMemoryBound(to: Float.self))
        }
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect
        if radius == 1 {
            for y in r.y..<r.maxY {
                _ = view.pointer(r.maxX + 1, y)  // the last column read, checked like every read
                dr_median3_row(floats(view.pointer(r.x - 1, y - 1)), floats(view.pointer(r.x - 1, y)), floats(view.pointer(r.x - 1, y + 1)),
                               Int32(r.width), UnsafeMutableRawPointer(target.pointer(r.x, y)).assumingMemoryBound(to: Float.self))
            }
            return
        }
        // The last pixel read, checked like every read.
        _ = view.pointer(r.maxX + radius, r.maxY - 1 + radius)
        let rows = haloRows(view, for: r, reach: radius, left: radius)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: dr_median_float_scratch(Int32(radius), Int32(r.width), Int32(r.height)),
                                                       alignment: 16)
        defer { scratch.deallocate() }
        let stride = r.height > 1 ? target.pointer(r.x, r.y + 1) - target.pointer(r.x, r.y) : 0
        dr_median_float(rows, Int32(radius), Int32(r.width), Int32(r.height),
                        UnsafeMutableRawPointer(target.pointer(r.x, r.y)).assumingMemoryBound(to: Float.self), 4 * stride, scratch)
    }
}
