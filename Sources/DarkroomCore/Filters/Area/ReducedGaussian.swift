/// A wide Gaussian blur computed over cells: a blur that wide leaves nothing finer than about
/// sigma/6 px, so from sigma 12 the image (or a shadow's alpha, or a feathered clip's mask) is
/// taken as its mean over cells of ``scale`` × ``scale`` px (``CellMean``), blurred at that
/// resolution and interpolated back onto the canvas (``CellUpsample``). The blur then
/// costs 1/scale² of its full-resolution work and its rasters 1/scale² of their memory.
///
/// The cells' mean and the interpolation widen the blur by a variance of
/// (scale² − 1)/12 + scale²/6 px², which the cells' blur gives back, so the result is as close
/// to the exact Gaussian as the same blur at full resolution (`ReducedGaussianTests`).
package struct ReducedGaussian: Sendable {
    /// The blur asked for, at full resolution.
    package let blur: GaussianBlur
    /// Canvas pixels per cell each way (1: the blur runs at full resolution).
    package let scale: Int

    /// The largest cell: the interpolation's error grows with scale²/sigma², and past 8 px the
    /// cells are already too few for their blur to cost anything.
    static let maximumScale = 8

    /// - Parameter scale: the cell size; by default the largest within ``maximumScale`` whose
    ///   interpolation stays far below a level (sigma/6, so 1 below sigma 12).
    package init(sigma: Double, scale: Int? = nil) {
        blur = GaussianBlur(sigma: sigma)
        self.scale = scale ?? min(Self.maximumScale, max(1, Int(sigma / 6)))
    }

    /// The blur of the cells, in cells: sigma less the variance the cells' mean and the
    /// interpolation add, over the scale.
    var cellBlur: GaussianBlur {
        let k = Double(scale), sigma = blur.kernel.sigma
        return GaussianBlur(sigma: (sigma * sigma - (k * k - 1) / 12 - k * k / 6).squareRoot() / k)
    }

    /// Cells kept around those that cover the canvas: the cells' blur's reach, so the blur near
    /// the canvas's edge reads the real surroundings, and one more for the interpolation.
    package var cellMargin: Int { cellBlur.halo(alphaOnly: true) + 1 }

    /// The cells over a canvas, ``cellMargin`` included: cell (X, Y) covers canvas pixels
    /// [(X − cellMargin)·scale, (X − cellMargin + 1)·scale) across, and likewise down.
    package func cells(over canvas: Size) -> Size {
        let k = scale, m = cellMargin
        return Size(width: (canvas.width + k - 1) / k + 2 * m, height: (canvas.height + k - 1) / k + 2 * m)
    }

    /// The steps that blur `source` (an image of `size`, every channel, its edges extended) into
    /// an image of the same size: `gaussian_blur`, `unsharp_mask` and `sharpen`. `first` is the
    /// index the first step will have in its plan.
    package func steps(for size: Size, from source: KernelPlan.Source, first: Int) -> [KernelPlan.Step] {
        guard scale > 1 else { return blur.steps(for: size, from: source, first: first) }
        let m = cellMargin * scale
        let cells = CellMean(inputSize: size, outputSize: cells(over: size), scale: scale, origin: (m, m), edge: .clamp, alphaOnly: false)
        return [.init(cells, sources: [source], label: "cells")] + steps(blurring: .step(first), canvas: size, first: first + 1)
    }

    /// The steps that blur `cells` (the mean of each cell over a canvas of `canvas`) and bring
    /// it back onto the canvas; with a `tint`, their alpha alone, as `tint` × the blurred alpha.
    /// `first` is the index the first step will have in its plan.
    package func steps(blurring cells: KernelPlan.Source, canvas: Size, first: Int, tint: Pixel? = nil) -> [KernelPlan.Step] {
        let size = self.cells(over: canvas)
        let blurred = cellBlur.steps(for: size, from: cells, first: first, tint: tint)
        let upsample = CellUpsample(inputSize: size, outputSize: canvas, scale: scale, margin: cellMargin)
        return blurred + [.init(upsample, sources: [.step(first + blurred.count - 1)], label: "upsample")]
    }
}
