/// The crop an analysis pass resolves to (trim, smart crop): a rectangle found in the measured
/// image; nil keeps everything (the worst case planned before anything is measured).
struct MeasuredCrop: RegionFilter {
    static let descriptor = FilterDescriptor(name: "measured_crop", displayName: "Measured crop", categories: [],
                                             description: "A crop to a rectangle found by an analysis pass.")
    let rect: Rect?
    init(rect: Rect?) { self.rect = rect }
    init(parameters: ResolvedParameters) { rect = nil }

    private func window(_ input: Size) -> Rect { rect?.intersection(Rect(size: input)) ?? Rect(size: input) }
    func outputSize(for input: Size) -> Size { window(input).size }
    func plan(for input: Size) -> KernelPlan {
        let r = window(input)
        return KernelPlan(CopyKernel(inputSize: input, outputSize: r.size, origin: (r.x, r.y)))
    }
}
