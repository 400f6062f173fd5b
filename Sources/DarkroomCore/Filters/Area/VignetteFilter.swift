import Foundation

/// CIVignette: darkens towards the corners. Core Image publishes no formula; darkroom's is
/// `factor = 1 − intensity · min(1, (radius · d / D)²)`, d the distance from the image's centre
/// and D the half diagonal: at radius 1 the corners lose `intensity` of their light and the
/// loss grows with the square of the distance (as natural lens fall-off roughly does); a larger
/// radius pulls the full darkening inwards, a negative intensity brightens.
struct VignetteFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "vignette", displayName: "Vignette", categories: ["stylize"],
        description: "Darkens towards the corners: each pixel × (1 − intensity · min(1, (radius · d/D)²)), d its distance "
            + "from the centre and D the half diagonal.",
        counterpart: "CIVignette",
        parameters: [
            ParameterDescriptor("radius", .scalar, "How far in the darkening reaches: 1 puts its full strength at the corners.",
                                default: .number(1), min: 0, max: 2, slider: 0...2, identity: .number(0)),
            ParameterDescriptor("intensity", .scalar, "Light lost at full strength; negative brightens.",
                                default: .number(0), min: -1, max: 1, slider: -1...1, identity: .number(0)),
        ])

    let radius: Double
    let intensity: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        radius = p.number("radius")
        intensity = p.number("intensity")
    }

    var isIdentity: Bool { radius == 0 || intensity == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        let cx = Double(input.width) / 2, cy = Double(input.height) / 2
        let reach = radius / max((cx * cx + cy * cy).squareRoot(), 0.5), amount = intensity
        return KernelPlan(PositionShadeKernel(size: input) { x, y in
            let t = reach * hypot(x - cx, y - cy)
            return Float(1 - amount * min(1, t * t))
        })
    }
}
