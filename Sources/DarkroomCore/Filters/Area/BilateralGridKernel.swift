import CDarkroomKernels
import Foundation

/// The range levels of ``BilateralLevelsKernel`` on a coarse spatial grid (`dr_bilateral_grid`;
/// Paris and Durand's bilateral grid, downsampled in space only): each level's planes are summed
/// into `cell`×`cell` cells aligned to the image's origin, blurred by a Gaussian of a few cells,
/// and read back at each pixel by bilinear interpolation. The cell grows with the radius, so the
/// cost per pixel and level does not. The cell sums and the read-back widen the spatial Gaussian
/// by a variance of cell²/4, which the coarse sigma takes back; what remains differs from the
/// exact window (its shape between cells, its cut at 2·radius) by a little more than the levels'
/// own error (`testTheGridIsTheChannelBilateralFormula`).
struct BilateralGridKernel: PixelKernel {
    let size: Size
    let rangeScale: Float
    let spacing: Float

    /// The radius from which the grid costs less than the full-resolution levels.
    static let minimumRadius = 4.0

    /// Cells a radius: the cell is radius / cellsPerRadius pixels (at least 2), so the coarse
    /// Gaussian has about 2·cellsPerRadius + 1 taps whatever the radius.
    static let cellsPerRadius = 2.0

    /// The cell side for `radius`, in pixels.
    static func cell(radius: Double) -> Int { max(2, Int((radius / cellsPerRadius).rounded())) }

    let cell: Int
    /// The full-resolution window's Gaussian (the direct sums for values outside the levels),
    /// 2·directReach + 1 taps, as ``BilateralLevelsKernel`` takes it.
    let spatial: [Float]
    var directReach: Int { spatial.count / 2 }
    let coarseReach: Int
    /// The coarse Gaussian's weights: sigma √(radius² − cell²/4) in cells.
    let coarse: [Float]
    /// How far a band's input reaches: the coarse Gaussian's cells and the read-back's.
    let reach: Int

    init(size: Size, radius: Double, spatial: [Float], rangeScale: Float, spacing: Float) {
        self.size = size
        self.spatial = spatial
        self.rangeScale = rangeScale
        self.spacing = spacing
        cell = Self.cell(radius: radius)
        let coarseReach = Int((2 * radius / Double(cell)).rounded(.up))
        self.coarseReach = coarseReach
        let s = Double(cell), sigma = (radius * radius - s * s / 4).squareRoot() / s
        coarse = (-coarseReach...coarseReach).map { d in Float(exp(-Double(d * d) / (2 * sigma * sigma))) }
        reach = Int(dr_bilateral_grid_reach(Int32(cell), Int32(coarseReach)))
    }

    /// A band sums the cells of its halo rows (about 2·radius + 2·cell above and below) anew for
    /// every level: bands at least as tall as that halo pay it once per halo of rows.
    var startsOverItsReach: Bool { true }

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: reach)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = reach
        _ = view.pointer(r.maxX + h - 1, r.maxY - 1 + h)  // the last pixel read, checked like every read
        let rows = haloRows(view, for: r, reach: h, left: h)
        let cell = Int32(cell), cr = Int32(coarseReach)
        let scratch = UnsafeMutableRawPointer.allocate(
            byteCount: dr_bilateral_grid_scratch(cell, cr, Int32(r.height), spacing), alignment: 32)
        defer { scratch.deallocate() }
        coarse.withUnsafeBufferPointer { c in
            spatial.withUnsafeBufferPointer { w in
                dr_bilateral_grid(rows, Int32(h), Int32(r.x), Int32(r.y), cell, c.baseAddress!, cr, w.baseAddress!,
                                  Int32(directReach), rangeScale, spacing, Int32(r.width), Int32(r.height),
                                  floats(target.pointer(r.x, r.y)), 4 * rowStride(target), scratch)
            }
        }
    }
}
