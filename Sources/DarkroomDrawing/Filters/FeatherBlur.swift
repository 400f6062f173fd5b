import DarkroomCore
import Foundation

/// Softens a shape's coverage with a Gaussian of `sigma` px: the coverage is rasterised over the
/// rectangle plus three sigmas each side, so a strip's edge matches the whole image's.
struct FeatherBlur: Sendable, Hashable {
    let sigma: Double

    var halo: Int { sigma > 0 ? Int((3 * sigma).rounded(.up)) : 0 }

    /// Normalised weights for offsets −halo … halo.
    var weights: [Float] {
        let w = (-halo...halo).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = w.reduce(0, +)
        return w.map { Float($0 / sum) }
    }

    /// Coverage of `path` over `rect`, row-major, `rect.width` per row; index [col, row].
    func coverage(of path: Path, rule: FillRule, over rect: Rect) -> CoverageGrid {
        let h = halo, area = rect.expanded(by: h)
        let sharp = Coverage(path, rule: rule, in: area)
        guard h > 0 else {
            var values = [Float](repeating: 0, count: rect.width * rect.height)
            for y in 0..<rect.height { for x in 0..<rect.width { values[y * rect.width + x] = sharp[rect.x + x, rect.y + y] } }
            return CoverageGrid(width: rect.width, values: values)
        }
        let k = weights
        // Across, for every row of the area; then down, for the rectangle's rows.
        var across = [Float](repeating: 0, count: rect.width * area.height)
        for y in 0..<area.height {
            for x in 0..<rect.width {
                var s: Float = 0
                for t in 0..<k.count { s += k[t] * sharp[rect.x + x + t - h, area.y + y] }
                across[y * rect.width + x] = s
            }
        }
        var values = [Float](repeating: 0, count: rect.width * rect.height)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                var s: Float = 0
                for t in 0..<k.count { s += k[t] * across[(y + t) * rect.width + x] }
                values[y * rect.width + x] = s
            }
        }
        return CoverageGrid(width: rect.width, values: values)
    }
}

/// Coverage values 0…1 of a rectangle, by column and row from its corner.
struct CoverageGrid {
    let width: Int
    let values: [Float]
    @inline(__always) subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}
