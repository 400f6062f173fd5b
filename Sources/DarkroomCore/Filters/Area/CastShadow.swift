/// The shadow an image's alpha casts (CGContextSetShadowWithColor): the alpha tinted with a
/// colour, moved by an offset and blurred (a Gaussian, sigma = blur). `drop_shadow` casts the
/// image's; a drawing module's `group` casts its layer's.
package struct CastShadow: Sendable {
    /// Where the shadow falls, in image coordinates (x right, y down), whole pixels.
    let offset: (x: Int, y: Int)
    let color: RGBA
    let blur: GaussianBlur

    package init(offset: (x: Int, y: Int), color: RGBA, blur sigma: Double) {
        self.offset = offset
        self.color = color
        blur = GaussianBlur(sigma: sigma)
    }

    /// How far the blur reaches: the shadow canvas's margin on each side.
    package var halo: Int { blur.halo(alphaOnly: true) }

    /// The steps that cast the shadow of `source` (an image of `size`) onto a canvas of `canvas`
    /// plus ``halo`` on every side, so the blur near the canvas's edge reads the real
    /// surroundings rather than extended edges. The last step's pixel (x + halo, y + halo) is
    /// the shadow at canvas pixel (x, y), where `at` is the canvas position of the source's
    /// top-left pixel. `first` is the index the first step will have in its plan.
    package func steps(casting source: KernelPlan.Source, size: Size, canvas: Size, at: (x: Int, y: Int) = (0, 0),
                      first: Int) -> [KernelPlan.Step] {
        let h = halo
        let layer = ShadowLayer(inputSize: size, outputSize: Size(width: canvas.width + 2 * h, height: canvas.height + 2 * h),
                                origin: (h + at.x + offset.x, h + at.y + offset.y))
        return [.init(layer, sources: [source], label: "shadow")]
            + blur.steps(for: layer.outputSize, from: .step(first), first: first + 1, tint: color.pixel)
    }
}
