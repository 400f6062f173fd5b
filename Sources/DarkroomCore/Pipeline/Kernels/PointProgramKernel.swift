/// A kernel that applies fused point filters to its one input, pixel for pixel: the rows are
/// copied and the program applied. ``PointProgramKernel`` is only that; ``ChannelTableKernel``
/// adds its 8-bit table path beside it.
protocol PointProgramPass: PixelKernel {
    var size: Size { get }
    var program: PointProgram { get }
}

extension PointProgramPass {
    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { program.preservesOpacity }
    var preservesGrey: Bool { program.preservesGrey }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            out.update(from: inputs[0].pointer(r.x, y), count: r.width)
            program.apply(out, count: r.width)
        }
    }
}

/// Fused point filters as a pass of their own: where a plan needs them between two of its
/// steps (a sub-chain's colour filters inside a `group`), not after a node that can carry them.
struct PointProgramKernel: PointProgramPass {
    let size: Size
    let program: PointProgram
}
