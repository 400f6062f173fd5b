import DarkroomCore

/// The image with a ``Layer`` composited onto it by a ``BlendMode`` at an opacity: the one
/// kernel behind blend, overlay_image, the gradients and draw_text. Each call renders the layer
/// for its own rectangle only (for a bounded mode, only where the layer covers it).
struct CompositeKernel: PixelKernel {
    let size: Size
    let layer: any Layer
    let mode: BlendMode
    let opacity: Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    func inputRegions(for output: Rect) -> [Rect] { [output] }

    var preservesOpacity: Bool { mode.keepsOpaqueBackdropOpaque }
    /// Every mode keeps a grey backdrop grey under a grey layer (hue and saturation included:
    /// a grey has no hue and no saturation to give).
    var preservesGrey: Bool { layer.isGrey }
    var heldBytes: Int { layer.heldBytes }
    var failure: String? { layer.failure }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY { target.pointer(r.x, y).update(from: inputs[0].pointer(r.x, y), count: r.width) }
        let area = mode.isBounded ? r.intersection(layer.coverage) : r
        guard !area.isEmpty else { return }
        let count = area.width * area.height
        let scratch = UnsafeMutablePointer<Pixel>.allocate(capacity: count)
        defer { scratch.deallocate() }
        layer.render(area, into: scratch)
        if opacity < 1 { for i in 0..<count { scratch[i] *= opacity } }
        for row in 0..<area.height {
            mode.composite(scratch + row * area.width, onto: target.pointer(area.x, area.y + row), count: area.width)
        }
    }
}
