/// The shadow an image's alpha casts (CGContextSetShadowWithColor): the alpha tinted with a
/// colour, moved by an offset and blurred (a Gaussian, sigma = blur). `drop_shadow` casts the
/// image's; a drawing module's `group` casts its layer's. From sigma 12 the alpha is blurred
/// over cells (``ReducedGaussian``).
package struct CastShadow: Sendable {
    /// Where the shadow falls, in image coordinates (x right, y down), whole pixels.
    let offset: (x: Int, y: Int)
    let color: RGBA
    let blur: ReducedGaussian

    /// - Parameter scale: the cells' size (``ReducedGaussian/init(sigma:scale:)``), by default
    ///   chosen from sigma.
    package init(offset: (x: Int, y: Int), color: RGBA, blur sigma: Double, scale: Int? = nil) {
        self.offset = offset
        self.color = color
        blur = ReducedGaussian(sigma: sigma, scale: scale)
    }

    /// Canvas pixels per cell each way (1: the shadow is blurred at full resolution).
    var scale: Int { blur.scale }

    /// The last step's margin around the canvas: its pixel (x + margin, y + margin) is the
    /// shadow at canvas pixel (x, y). At full resolution the blur's reach, so that the blur near
    /// the canvas's edge reads the real surroundings rather than extended edges; none when the
    /// shadow is interpolated back onto the canvas itself.
    package var margin: Int { scale == 1 ? blur.blur.halo(alphaOnly: true) : 0 }

    /// The steps that cast the shadow of `source` (an image of `size`) onto a canvas of `canvas`
    /// plus ``margin`` on every side, where `at` is the canvas position of the source's top-left
    /// pixel. `first` is the index the first step will have in its plan.
    package func steps(casting source: KernelPlan.Source, size: Size, canvas: Size, at: (x: Int, y: Int) = (0, 0),
                      first: Int) -> [KernelPlan.Step] {
        let k = scale
        if k == 1 {
            let h = margin
            let layer = CellMean(inputSize: size, outputSize: Size(width: canvas.width + 2 * h, height: canvas.height + 2 * h), scale: 1,
                                 origin: (h + at.x + offset.x, h + at.y + offset.y), edge: .transparent, alphaOnly: true)
            return [.init(layer, sources: [source], label: "shadow")]
                + blur.blur.steps(for: layer.outputSize, from: .step(first), first: first + 1, tint: color.pixel)
        }
        let m = blur.cellMargin * k
        let layer = CellMean(inputSize: size, outputSize: blur.cells(over: canvas), scale: k,
                             origin: (m + at.x + offset.x, m + at.y + offset.y), edge: .transparent, alphaOnly: true)
        return [.init(layer, sources: [source], label: "shadow")]
            + blur.steps(blurring: .step(first), canvas: canvas, first: first + 1, tint: color.pixel)
    }
}
