import CDarkroomDraw
import DarkroomCore

/// A layer cairo paints for each rectangle asked: a linear or radial gradient, or an image
/// scaled into a rectangle (and tiled beyond it). Each call makes its own cairo surface over a
/// scratch buffer, translated to the rectangle, so strips rasterise only their own pixels and
/// share nothing mutable.
struct PaintLayer: Layer {
    enum Kind: Sendable {
        case linear(start: (Double, Double), end: (Double, Double))
        case radial(center0: (Double, Double), radius0: Double, center1: (Double, Double), radius1: Double)
        /// ARGB32 pixels of `size`, drawn into `into` (x, y, width, height).
        case image(argb: [UInt32], size: Size, into: (x: Double, y: Double, width: Double, height: Double))
    }

    let kind: Kind
    /// Straight colours at offsets 0…1 (gradients).
    var stops: [dr_stop] = []
    var extend: Int32 = Int32(DR_EXTEND_NONE)
    /// Limits the paint (a `cover` fit's rectangle); nil: none.
    var clip: Rect?
    let coverage: Rect
    let isGrey: Bool

    func render(_ rect: Rect, into out: UnsafeMutablePointer<Pixel>) {
        let count = rect.width * rect.height
        let argb = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { argb.deallocate() }
        paint(rect, into: argb)
        ARGB.unpack(argb, into: out, count: count)
    }

    /// The layer's pixels of `rect` as ARGB32 (transparent if cairo fails: it fails only
    /// without memory for its own structures).
    func paint(_ rect: Rect, into argb: UnsafeMutablePointer<UInt32>) {
        let count = rect.width * rect.height
        var paint = dr_paint()
        paint.extend = extend
        if let clip { (paint.clip_x, paint.clip_y, paint.clip_w, paint.clip_h) = (Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height)) }
        let status: Int32 = stops.withUnsafeBufferPointer { stopBuffer in
            paint.stops = stopBuffer.baseAddress
            paint.stop_count = Int32(stopBuffer.count)
            switch kind {
            case .linear(let start, let end):
                paint.kind = Int32(DR_PAINT_LINEAR)
                (paint.x0, paint.y0, paint.x1, paint.y1) = (start.0, start.1, end.0, end.1)
                return dr_paint_rect(&paint, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), argb)
            case .radial(let c0, let r0, let c1, let r1):
                paint.kind = Int32(DR_PAINT_RADIAL)
                (paint.x0, paint.y0, paint.r0, paint.x1, paint.y1, paint.r1) = (c0.0, c0.1, r0, c1.0, c1.1, r1)
                return dr_paint_rect(&paint, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), argb)
            case .image(let pixels, let size, let into):
                paint.kind = Int32(DR_PAINT_IMAGE)
                (paint.width, paint.height) = (Int32(size.width), Int32(size.height))
                (paint.dest_x, paint.dest_y, paint.dest_w, paint.dest_h) = into
                return pixels.withUnsafeBufferPointer { buffer in
                    paint.pixels = buffer.baseAddress
                    return dr_paint_rect(&paint, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), argb)
                }
            }
        }
        if status != 0 { argb.update(repeating: 0, count: count) }
    }
}

extension dr_stop {
    /// A stop at `offset` of the straight colour `color`.
    init(_ offset: Double, _ color: RGBA) { self.init(at: offset, r: color.r, g: color.g, b: color.b, a: color.a) }
}
