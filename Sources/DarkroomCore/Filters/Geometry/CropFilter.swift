/// CICrop / CGImageCreateWithImageInRect: keeps a rectangle of the image, a plain copy.
///
/// The rectangle is `x, y, width, height` (pixels or % of the image's width/height), or a
/// `width × height` anchored by `gravity`. It is clamped to the image and never empty: an
/// origin past the right or bottom edge keeps the last column or row. Values that can never
/// make sense (a zero size, a % origin of 100 or more) are rejected when the config loads.
/// `gravity: attention | entropy` places the window where the image is most interesting
/// (``InterestMeasure``, as `vips smartcrop`): the chain compiler then runs it as an analysis
/// pass (``SmartCrop``).
struct CropFilter: RegionFilter, ContentAwareFilter {
    static let descriptor = FilterDescriptor(
        name: "crop", displayName: "Crop", categories: ["geometry"],
        description: """
            Keeps the rectangle x, y, width, height (px or %), or a width × height placed by \
            gravity. The rectangle is clamped to the image; it is never empty.
            """,
        counterpart: "CICrop / vips crop",
        parameters: [
            ParameterDescriptor("x", .length, "Left edge (px or % of the width).", default: .length(Length(0)), min: 0, unit: "px"),
            ParameterDescriptor("y", .length, "Top edge (px or % of the height).", default: .length(Length(0)), min: 0, unit: "px"),
            ParameterDescriptor("width", .length, "Width (px or % of the width).",
                                default: .length(Length(100, percent: true)), min: 1, identity: .length(Length(100, percent: true)), unit: "px"),
            ParameterDescriptor("height", .length, "Height (px or % of the height).",
                                default: .length(Length(100, percent: true)), min: 1, identity: .length(Length(100, percent: true)), unit: "px"),
            ParameterDescriptor("gravity", .choice(Gravity.allCases.map(\.rawValue) + InterestMeasure.allCases.map(\.rawValue)),
                                "Place the width × height by compass point instead of x, y: center, north, north_east, …; "
                                    + "or where the image is most interesting, as vips smartcrop: attention or entropy."),
        ],
        examples: [
            "x=3 y=5 width=20 height=11",
            "width=50% height=30% gravity=south_east",
        ])

    var x, y, width, height: Length
    var gravity: Gravity?
    /// Set for `gravity: attention | entropy`; the window is then measured (centred until it is).
    var interest: InterestMeasure?

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        x = p.length("x")
        y = p.length("y")
        width = p.length("width")
        height = p.length("height")
        gravity = parameters.choice("gravity").flatMap(Gravity.init(rawValue:))
        interest = parameters.choice("gravity").flatMap(InterestMeasure.init(rawValue:))
        if interest != nil { gravity = .center }
        if gravity != nil, x.value != 0 || y.value != 0 {
            throw ParameterError("give either x/y or gravity, not both")
        }
        for (name, l) in [("x", x), ("y", y)] where l.isPercent && !(0..<100).contains(l.value) {
            throw ParameterError("\(name) must be at least 0% and below 100%, got \(l)")
        }
        for (name, l) in [("width", width), ("height", height)] where l.isPercent && !(l.value > 0) {
            throw ParameterError("\(name) must be more than 0%, got \(l)")
        }
    }

    var isIdentity: Bool {
        x.value == 0 && y.value == 0 && width == Length(100, percent: true) && height == Length(100, percent: true)
    }

    /// The kept rectangle for an image of `input`: inside the image and at least 1×1.
    func rect(in input: Size) -> Rect {
        guard input.width > 0, input.height > 0 else { return Rect(size: input) }
        func px(_ l: Length, _ extent: Int) -> Int { Int(saturating: l.pixels(of: extent).rounded()) }
        let w = min(max(px(width, input.width), 1), input.width)
        let h = min(max(px(height, input.height), 1), input.height)
        if let gravity {
            let o = gravity.origin(of: Size(width: w, height: h), in: input)
            return Rect(x: o.x, y: o.y, width: w, height: h)
        }
        let x0 = min(max(px(x, input.width), 0), input.width - 1)
        let y0 = min(max(px(y, input.height), 0), input.height - 1)
        return Rect(x: x0, y: y0, width: min(w, input.width - x0), height: min(h, input.height - y0))
    }

    func outputSize(for input: Size) -> Size { rect(in: input).size }

    var analysis: (any AnalysisFilter)? { interest.map { SmartCrop(crop: self, measure: $0) } }

    func plan(for input: Size) -> KernelPlan {
        let r = rect(in: input)
        return KernelPlan(CopyKernel(inputSize: input, outputSize: r.size, origin: (r.x, r.y)))
    }
}
