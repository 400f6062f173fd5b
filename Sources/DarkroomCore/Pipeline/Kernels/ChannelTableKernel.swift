/// A chain of point filters alone on an opaque 8-bit source, when every operation acts on each
/// colour channel alone (``PointProgram/isChannelwise``: invert, levels, curves, exposure, a
/// 1-D `.cube` table): each channel then takes only 256 values, so the fused pass is computed
/// once per value into three tables, and the decoder's 8-bit rows are looked up straight into
/// the output's float pixels — the decoded image never exists as float bands, and no operation
/// runs per pixel. Exact: every entry is the fused pass's own float result for that value (the
/// same `v / 255` the decoder's float rows hold), so the output is the float path's bit for bit
/// (`ChannelTableTests`). libvips' `maplut` works this way on uchar images.
///
/// Other sources (16-bit, with alpha, or not handing out 8-bit rows) take ``PointProgramPass``'s
/// float pass: the rows copied and the program applied, as the node before would have.
struct ChannelTableKernel: RGB8InputKernel, PointProgramPass {
    let size: Size
    let program: PointProgram
    /// R's 256 results, then G's, then B's.
    let tables: [Float]

    init(size: Size, program: PointProgram) {
        self.size = size
        self.program = program
        var ramp = (0...255).map { v -> Pixel in let u = Float(v) / 255; return Pixel(u, u, u, 1) }
        ramp.withUnsafeMutableBufferPointer { program.apply($0.baseAddress!, count: 256) }
        tables = (0..<3).flatMap { c in ramp.map { $0[c] } }
    }

    var acceptsRGB8Input: Bool { true }

    func render(rgb8 input: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect
        tables.withUnsafeBufferPointer { t in
            let red = t.baseAddress!, green = red + 256, blue = green + 256
            for y in r.y..<r.maxY {
                let out = target.pointer(r.x, y), bytes = input.pointer(r.x, y)
                for i in 0..<r.width {
                    out[i] = Pixel(red[Int(bytes[3 * i])], green[Int(bytes[3 * i + 1])], blue[Int(bytes[3 * i + 2])], 1)
                }
            }
        }
    }
}
