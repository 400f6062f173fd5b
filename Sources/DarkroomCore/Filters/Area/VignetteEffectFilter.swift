import Foundation

/// CIVignetteEffect: a circle around `center` keeps its light and the image darkens outside it.
/// Core Image publishes no formula; darkroom's is `factor = 1 − intensity · smoothstep(radius ·
/// (1 − falloff), radius, d)`, d the distance from the centre: full light within
/// `radius · (1 − falloff)`, a smooth fall to `1 − intensity` at `radius`, flat beyond.
struct VignetteEffectFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "vignette_effect", displayName: "Vignette Effect", categories: ["stylize"],
        description: "Keeps a circle around the centre bright and darkens outside it: × (1 − intensity · smoothstep("
            + "radius·(1 − falloff), radius, d)), d the distance from the centre.",
        counterpart: "CIVignetteEffect",
        parameters: [
            ParameterDescriptor("center", .point, "Centre of the bright circle, in px or % of the size.",
                                default: .point(Length(50, percent: true), Length(50, percent: true)), unit: "px"),
            ParameterDescriptor("radius", .length, "Where the darkening reaches full strength, in px or % of the width.",
                                default: .length(Length(50, percent: true)), min: 0, slider: 0...2000, unit: "px"),
            ParameterDescriptor("intensity", .scalar, "Light lost outside the circle; negative brightens.",
                                default: .number(1), min: -1, max: 1, slider: -1...1, identity: .number(0)),
            ParameterDescriptor("falloff", .scalar, "Width of the soft edge, as a fraction of the radius.",
                                default: .number(0.5), min: 0, max: 1, slider: 0...1),
        ])

    let center: (x: Length, y: Length)
    let radius: Length
    let intensity: Double
    let falloff: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        let c = p.point("center")
        center = (c.0, c.1)
        radius = p.length("radius")
        intensity = p.number("intensity")
        falloff = p.number("falloff")
    }

    var isIdentity: Bool { intensity == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        let cx = center.x.pixels(of: input.width), cy = center.y.pixels(of: input.height)
        let outer = radius.pixels(of: input.width), inner = outer * (1 - falloff), amount = intensity
        return KernelPlan(PositionShadeKernel(size: input) { x, y in
            Float(1 - amount * smoothstep(inner, outer, hypot(x - cx, y - cy)))
        })
    }
}
