/// The cookbook's `drawAtPoint`: an image file drawn over the image at its natural size, its
/// top-left corner at `position`, with `opacity` (source-over on premultiplied pixels). The
/// simplest filter with an asset: the file is loaded by the codecs' asset store, the filter
/// receives its pixels as an ``ImageAsset`` and reads them with a transparent edge.
public struct OverlayImageFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "overlay_image", displayName: "Overlay Image", categories: ["composite"],
        description: "Draws an image file (a watermark, a stamp) over the image at its natural size, "
            + "its top-left corner at position, with an opacity.",
        counterpart: "CISourceOverCompositing / vips composite",
        parameters: [
            ParameterDescriptor("image", .image, "The image file to draw (PNG, JPEG, TIFF, WebP, HEIF or AVIF), relative to the config's folder.",
                                required: true),
            ParameterDescriptor("position", .point, "Where its top-left corner goes, in px or % of the image's size.",
                                default: .point(Length(0), Length(0)), unit: "px"),
            ParameterDescriptor("opacity", .scalar, "1 draws it as it is, 0 not at all.",
                                default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
        ])

    public let image: any ImageAsset
    public let position: (x: Length, y: Length)
    public let opacity: Double

    public init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        image = p.image("image")
        let xy = p.point("position")
        position = (xy.0, xy.1)
        opacity = p.number("opacity")
    }

    public var isIdentity: Bool { opacity == 0 || image.size.area == 0 }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let x = Int(saturating: position.x.pixels(of: input.width).rounded())
        let y = Int(saturating: position.y.pixels(of: input.height).rounded())
        return KernelPlan(OverlayKernel(size: input, image: image, origin: (x, y), opacity: Float(opacity)))
    }
}

/// The input with `image` composited over it at `origin`.
struct OverlayKernel: PixelKernel {
    let size: Size
    let image: any ImageAsset
    let origin: (x: Int, y: Int)
    let opacity: Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    func inputRegions(for output: Rect) -> [Rect] { [output] }

    /// Source-over keeps an opaque image opaque; a colour overlay makes grey colour.
    var preservesGrey: Bool { image.isGrey }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let placed = Rect(x: origin.x, y: origin.y, width: image.size.width, height: image.size.height).intersection(r)
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            out.update(from: inputs[0].pointer(r.x, y), count: r.width)
            guard y >= placed.y, y < placed.maxY else { continue }
            for x in placed.x..<placed.maxX {
                let top = image.pixel(x - origin.x, y - origin.y, edge: .transparent) * opacity
                out[x - r.x] = top + out[x - r.x] * (1 - top[3])
            }
        }
    }
}
