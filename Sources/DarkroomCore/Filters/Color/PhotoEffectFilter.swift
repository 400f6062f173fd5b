/// CIPhotoEffect*: the eight film looks of Apple's Photos app. Apple ships them as colour cubes it
/// does not publish, and documents each in one sentence; each style here is a matrix (saturation,
/// colour cast) followed by a tone curve (contrast, faded blacks), chosen to do what that sentence
/// says and nothing more, with amounts a photographer would call "clearly visible but not
/// garish". Matrix and curve fuse with neighbouring filters; the grey styles keep grey.
///
/// | style | Apple's description | matrix, then curve |
/// |---|---|---|
/// | chrome | vintage film, exaggerated colour | saturation 1.3; S-curve 0.25 |
/// | fade | vintage film, diminished colour | saturation 0.6; blacks lifted to 0.10, whites lowered to 0.95 |
/// | instant | vintage instant film, distorted colours | saturation 0.8, warm cast R×1.06 B×0.88; lift 0.06…0.97; S-curve 0.15 |
/// | mono | black-and-white film, low contrast | Rec. 709 luma; contrast 0.85 about mid-grey |
/// | noir | black-and-white film, exaggerated contrast | Rec. 709 luma; S-curve 0.8 |
/// | process | vintage film, emphasised cool colours | cool cast R×0.92 G×1.02 B×1.08; S-curve 0.2 |
/// | tonal | black-and-white film, contrast not much altered | Rec. 709 luma; no curve |
/// | transfer | vintage film, emphasised warm colours | warm cast R×1.08 G×1.02 B×0.88; lift 0.04…1 |
///
/// The S-curve of amount k is `c + k·(smoothstep(c) − c)` on `c` clamped to 0…1, smoothstep
/// `c²·(3 − 2c)`: it fixes 0, ½ and 1 and steepens the mid-tones.
struct PhotoEffectFilter: PointFilter {
    enum Style: String, CaseIterable, Sendable {
        case chrome, fade, instant, mono, noir, process, tonal, transfer
    }

    static let descriptor = FilterDescriptor(
        name: "photo_effect", displayName: "Photo Effect", categories: ["color", "stylize"],
        description: "One of eight film looks (Apple's Photos effects); each style's matrix and curve are in docs/chains.md.",
        counterpart: "CIPhotoEffectChrome, …Fade, …Instant, …Mono, …Noir, …Process, …Tonal, …Transfer",
        parameters: [
            ParameterDescriptor("style", .choice(Style.allCases.map(\.rawValue)), "The look.", default: .choice("chrome")),
        ],
        examples: [
            "style=fade",
            "style=instant",
            "style=mono",
            "style=noir",
            "style=process",
            "style=tonal",
            "style=transfer",
        ])

    var style: Style

    init(parameters: ResolvedParameters) {
        style = Self.described(parameters).choice("style")
    }

    var pointOperations: [any PointOperation] {
        switch style {
        case .chrome: [Self.saturation(1.3), Self.sCurve(0.25)]
        case .fade: [Self.saturation(0.6), Self.lift(0.10, 0.95)]
        case .instant: [Self.saturation(0.8).then(Self.cast(1.06, 1, 0.88)), Self.lift(0.06, 0.97).then(Self.sCurve(0.15))]
        case .mono: [GrayscaleFilter.matrix.then(ColorMatrix.rgb([0.85, 0, 0, 0, 0.85, 0, 0, 0, 0.85], bias: [0.075, 0.075, 0.075]))]
        case .noir: [GrayscaleFilter.matrix, Self.sCurve(0.8)]
        case .process: [Self.cast(0.92, 1.02, 1.08), Self.sCurve(0.2)]
        case .tonal: [GrayscaleFilter.matrix]
        case .transfer: [Self.cast(1.08, 1.02, 0.88), Self.lift(0.04, 1)]
        }
    }

    /// Mix with the Rec. 709 grey: `grey + s·(c − grey)`.
    static func saturation(_ s: Double) -> ColorMatrix {
        let (r, g, b) = ColorControlsFilter.luma
        return ColorMatrix.rgb([r * (1 - s) + s, g * (1 - s), b * (1 - s),
                                r * (1 - s), g * (1 - s) + s, b * (1 - s),
                                r * (1 - s), g * (1 - s), b * (1 - s) + s])
    }

    static func cast(_ r: Double, _ g: Double, _ b: Double) -> ColorMatrix { ColorMatrix.rgb([r, 0, 0, 0, g, 0, 0, 0, b]) }

    static func sCurve(_ k: Float) -> ToneCurve {
        ToneCurve("S-curve \(k)") { v in
            let c = min(max(v, 0), 1)
            return c + k * (c * c * (3 - 2 * c) - c)
        }
    }

    /// 0…1 mapped to `black`…`white`.
    static func lift(_ black: Float, _ white: Float) -> ToneCurve {
        ToneCurve("lift \(black)…\(white)") { black + (white - black) * $0 }
    }
}
