/// A median filter (`vips rank` at the middle index; ImageMagick `-statistic Median`): each
/// channel of each pixel becomes the median of that channel over the (2·radius + 1)² square
/// around it, edges extended. It removes salt-and-pepper noise and keeps edges where a blur
/// would smear them.
///
/// Channels are taken one by one, as vips does, on premultiplied values (the same as straight
/// colour where the image is opaque). Radius 1 (3×3) runs a 19-comparison sorting network on
/// all four channels at once; larger squares select the median of each channel.
public struct MedianFilter: RegionFilter {
    /// 21×21 is 441 values a channel: far into "use a blur" territory, and each costs a selection.
    public static let maximumRadius = 10.0

    public static let descriptor = FilterDescriptor(
        name: "median", displayName: "Median", categories: ["blur", "stylize"],
        description: "Replaces each channel by its median over the (2·radius + 1)² square around the pixel "
            + "(3×3 for radius 1); removes specks and keeps edges.",
        counterpart: "vips rank / CIMedianFilter (3×3)",
        parameters: [
            ParameterDescriptor("radius", .integer, "Pixels each side of the centre the square reaches.",
                                default: .number(1), min: 0, max: maximumRadius, slider: 1...5, identity: .number(0), unit: "px"),
        ])

    public let radius: Int

    public init(parameters: ResolvedParameters) {
        radius = Int(Self.described(parameters).number("radius"))
    }

    public var isIdentity: Bool { radius == 0 }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan { KernelPlan(MedianKernel(size: input, radius: radius)) }
}

struct MedianKernel: PixelKernel {
    let size: Size
    let radius: Int

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: radius)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect
        if radius == 1 {
            for y in r.y..<r.maxY {
                let a = view.pointer(r.x - 1, y - 1), b = view.pointer(r.x - 1, y), c = view.pointer(r.x - 1, y + 1)
                let out = target.pointer(r.x, y)
                for x in 0..<r.width {
                    out[x] = Self.median9(a[x], a[x + 1], a[x + 2], b[x], b[x + 1], b[x + 2], c[x], c[x + 1], c[x + 2])
                }
            }
            return
        }
        let side = 2 * radius + 1, count = side * side
        var values = [Float](repeating: 0, count: count)
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            for x in 0..<r.width {
                var p = Pixel.zero
                for c in 0..<4 {
                    var i = 0
                    for dy in -radius...radius {
                        let row = view.pointer(r.x + x - radius, y + dy)
                        for dx in 0..<side { values[i] = row[dx][c]; i += 1 }
                    }
                    p[c] = Self.select(&values, count / 2)
                }
                out[x] = p
            }
        }
    }

    /// The median of nine pixels per channel (Devillard's `opt_med9` network: 19 min/max pairs).
    @inline(__always)
    static func median9(_ p0: Pixel, _ p1: Pixel, _ p2: Pixel, _ p3: Pixel, _ p4: Pixel, _ p5: Pixel,
                        _ p6: Pixel, _ p7: Pixel, _ p8: Pixel) -> Pixel {
        var (p0, p1, p2, p3, p4, p5, p6, p7, p8) = (p0, p1, p2, p3, p4, p5, p6, p7, p8)
        @inline(__always) func sort(_ a: inout Pixel, _ b: inout Pixel) {
            let lo = pointwiseMin(a, b)
            b = pointwiseMax(a, b)
            a = lo
        }
        sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8)
        sort(&p0, &p1); sort(&p3, &p4); sort(&p6, &p7)
        sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8)
        sort(&p0, &p3); sort(&p5, &p8); sort(&p4, &p7)
        sort(&p3, &p6); sort(&p1, &p4); sort(&p2, &p5)
        sort(&p4, &p7); sort(&p4, &p2); sort(&p6, &p4)
        sort(&p4, &p2)
        return p4
    }

    /// The `k`-th smallest of `values` (Hoare's selection; reorders them).
    static func select(_ values: inout [Float], _ k: Int) -> Float {
        var lo = 0, hi = values.count - 1
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j { values.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return values[k]
    }
}
