/// Copies a rectangle of the input: `crop`, an identity resize. Output pixel (x, y) is input
/// pixel (x + origin.x, y + origin.y).
struct CopyKernel: PixelKernel {
    var rendersInColumnPieces: Bool { true }
    let inputSize: Size
    let outputSize: Size
    let origin: (x: Int, y: Int)

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] {
        [Rect(x: output.x + origin.x, y: output.y + origin.y, width: output.width, height: output.height)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY {
            target.pointer(r.x, y).update(from: inputs[0].pointer(r.x + origin.x, y + origin.y), count: r.width)
        }
    }
}
