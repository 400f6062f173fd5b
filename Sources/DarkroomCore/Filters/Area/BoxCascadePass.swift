import CDarkroomKernels

/// One direction of a ``GaussianBlur`` as five extended boxes (`box_cascade.c`), or of a
/// `box_blur` as one plain box: the same few operations per sample at any sigma or radius,
/// where sampled taps grow with it. The sums are exact integers, so a pixel comes out the same
/// whichever band, piece or thread computes it.
///
/// With a `tint`, only alpha is blurred (a shadow is one channel): the pass down leaves
/// (0, 0, 0, a) and the pass across writes tint × a.
struct BoxCascadePass: RGB8InputKernel {
    let box: dr_ebox
    let size: Size
    let across: Bool
    let tint: Pixel?

    init(sigma: Double, size: Size, across: Bool, tint: Pixel?) {
        var b = dr_ebox()
        dr_ebox_init(&b, sigma)
        self.init(boxes: b, size: size, across: across, tint: tint)
    }

    /// One plain box instead: the mean of 2·radius + 1 pixels (`box_blur`), radius ≥ 1.
    init(boxRadius radius: Int, size: Size, across: Bool) {
        var b = dr_ebox()
        dr_ebox_init_box(&b, Int32(radius))
        self.init(boxes: b, size: size, across: across, tint: nil)
    }

    private init(boxes: dr_ebox, size: Size, across: Bool, tint: Pixel?) {
        box = boxes
        self.size = size
        self.across = across
        self.tint = tint
    }

    var reach: Int { Int(box.reach) }
    /// The running sums start over the rows above each band (down) or the pixels left of it.
    var startsOverItsReach: Bool { !across }
    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { tint == nil }
    var preservesGrey: Bool { tint?.isGrey ?? true }

    /// Across, the kernel extends the rows' edge pixels itself and declares only the row's own
    /// pixels: a reach wider than the bands' padding would otherwise have each band's rows copied.
    func inputRegions(for output: Rect) -> [Rect] {
        let h = reach
        guard across else { return [Rect(x: output.x, y: output.y - h, width: output.width, height: output.height + 2 * h)] }
        let (lo, hi) = columns(for: output)
        return [Rect(x: lo, y: output.y, width: hi - lo, height: output.height)]
    }

    /// The input columns an output's pixels read across, clipped to the input.
    private func columns(for output: Rect) -> (Int, Int) {
        let lo = min(max(output.x - reach, 0), size.width), hi = max(min(output.maxX + reach, size.width), lo)
        return (lo, hi)
    }

    /// Columns of the pass down are independent; across, a piece would redo the reach each side.
    var rendersInColumnPieces: Bool { !across }

    var acceptsRGB8Input: Bool { !across && tint == nil }

    func render(rgb8 view: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect, h = reach
        // Rows past the top and bottom repeat the edge rows (the view holds only the image's).
        let rows = (0..<(r.height + 2 * h)).map { k in Optional(view.pointer(r.x, min(max(r.y - h + k, view.rect.y), view.rect.maxY - 1))) }
        withScratch { box, scratch in
            dr_ebox_down_rgb8(box, rows, Int32(r.height), Int32(r.width), floats(target.pointer(r.x, r.y)),
                              4 * rowStride(target), scratch)
        }
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = reach
        let out = floats(target.pointer(r.x, r.y)), stride = 4 * rowStride(target)
        if across {
            let (lo, hi) = columns(for: r)
            let rows = (r.y..<r.maxY).map { y in
                // Both ends through the view, so an undeclared read is caught as in Swift kernels.
                _ = view.pointer(hi, y)
                return Optional(floats(view.pointer(lo, y)))
            }
            let colour = tint.map { [$0[0], $0[1], $0[2], $0[3]] }
            let available = Int32(hi - lo), start = Int32(r.x - h - lo)
            withScratch { box, scratch in
                if let colour {
                    colour.withUnsafeBufferPointer {
                        dr_ebox_across(box, rows, available, start, Int32(r.height), Int32(r.width), 1, $0.baseAddress, out, stride, scratch)
                    }
                } else {
                    dr_ebox_across(box, rows, available, start, Int32(r.height), Int32(r.width), 0, nil, out, stride, scratch)
                }
            }
            return
        }
        let rows = haloRows(view, for: r, reach: h, left: 0)
        withScratch { box, scratch in
            dr_ebox_down(box, rows, Int32(r.height), Int32(r.width), tint == nil ? 0 : 1, out, stride, scratch)
        }
    }

    private func withScratch(_ body: (UnsafePointer<dr_ebox>, UnsafeMutablePointer<Int32>) -> Void) {
        var b = box
        let count = dr_ebox_scratch(&b)
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        defer { scratch.deallocate() }
        withUnsafePointer(to: &b) { body($0, scratch) }
    }
}
