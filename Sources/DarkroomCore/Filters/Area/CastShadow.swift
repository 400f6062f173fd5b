/// The shadow an image's alpha casts (CGContextSetShadowWithColor): the alpha tinted with a
/// colour, moved by an offset and blurred (a Gaussian, sigma = blur). `drop_shadow` casts the
/// image's; a drawing module's `group` casts its layer's.
///
/// A wide blur leaves nothing finer than about sigma/6 px, so from sigma 12 the alpha is
/// averaged over cells of ``scale`` × ``scale`` px, blurred at that resolution and interpolated
/// back (``ShadowUpsample``): the blur then costs 1/scale² of its full-resolution work and the
/// shadow's raster 1/scale² of its memory. The cells' mean and the interpolation widen the blur
/// by a variance of (scale² − 1)/12 + scale²/6 px², which the reduced blur's sigma gives back, so
/// the shadow is as close to the exact Gaussian of the alpha as the blur at full resolution
/// (within 2/255 on hard edges; `ReducedShadowTests`).
package struct CastShadow: Sendable {
    /// Where the shadow falls, in image coordinates (x right, y down), whole pixels.
    let offset: (x: Int, y: Int)
    let color: RGBA
    /// The blur asked for, at full resolution.
    let blur: GaussianBlur
    /// Canvas pixels per shadow pixel each way (1: the shadow is blurred at full resolution).
    let scale: Int

    /// The largest cell: the interpolation's error grows with scale²/sigma², and past 8 px the
    /// reduced raster is already too small for its blur to cost anything.
    static let maximumScale = 8

    /// - Parameter scale: the cell size; by default the largest within ``maximumScale`` whose
    ///   interpolation stays far below a level (sigma/6, so 1 below sigma 12).
    package init(offset: (x: Int, y: Int), color: RGBA, blur sigma: Double, scale: Int? = nil) {
        self.offset = offset
        self.color = color
        blur = GaussianBlur(sigma: sigma)
        self.scale = scale ?? min(Self.maximumScale, max(1, Int(sigma / 6)))
    }

    /// The blur of the reduced alpha, in its own pixels: sigma less the variance the cells' mean
    /// and the interpolation add, over the scale.
    var reducedBlur: GaussianBlur {
        let k = Double(scale), sigma = blur.kernel.sigma
        return GaussianBlur(sigma: (sigma * sigma - (k * k - 1) / 12 - k * k / 6).squareRoot() / k)
    }

    /// The last step's margin around the canvas: its pixel (x + margin, y + margin) is the
    /// shadow at canvas pixel (x, y). At full resolution the blur's reach, so that the blur near
    /// the canvas's edge reads the real surroundings rather than extended edges; none when the
    /// shadow is interpolated back onto the canvas itself.
    package var margin: Int { scale == 1 ? blur.halo(alphaOnly: true) : 0 }

    /// The steps that cast the shadow of `source` (an image of `size`) onto a canvas of `canvas`
    /// plus ``margin`` on every side, where `at` is the canvas position of the source's top-left
    /// pixel. `first` is the index the first step will have in its plan.
    package func steps(casting source: KernelPlan.Source, size: Size, canvas: Size, at: (x: Int, y: Int) = (0, 0),
                      first: Int) -> [KernelPlan.Step] {
        let k = scale
        if k == 1 {
            let h = margin
            let layer = ShadowLayer(inputSize: size, outputSize: Size(width: canvas.width + 2 * h, height: canvas.height + 2 * h),
                                    origin: (h + at.x + offset.x, h + at.y + offset.y), scale: 1)
            return [.init(layer, sources: [source], label: "shadow")]
                + blur.steps(for: layer.outputSize, from: .step(first), first: first + 1, tint: color.pixel)
        }
        // The reduced raster keeps a margin of the reduced blur's reach, and one cell more for
        // the interpolation, around the cells that cover the canvas.
        let blur = reducedBlur, m = blur.halo(alphaOnly: true) + 1
        let reduced = Size(width: (canvas.width + k - 1) / k + 2 * m, height: (canvas.height + k - 1) / k + 2 * m)
        let layer = ShadowLayer(inputSize: size, outputSize: reduced, origin: (m * k + at.x + offset.x, m * k + at.y + offset.y), scale: k)
        let blurred = blur.steps(for: reduced, from: .step(first), first: first + 1, tint: color.pixel)
        let upsample = ShadowUpsample(inputSize: reduced, outputSize: canvas, scale: k, margin: m)
        return [.init(layer, sources: [source], label: "shadow")] + blurred
            + [.init(upsample, sources: [.step(first + blurred.count)], label: "upsample")]
    }
}
