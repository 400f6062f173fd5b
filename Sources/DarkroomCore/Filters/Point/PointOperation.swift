/// One per-pixel operation of a point filter: a function of each pixel's own straight
/// (unpremultiplied) RGBA, nothing else. Open to any filter; the chain compiler fuses runs of
/// them into one pass over the rows of the node before them (see ``PointProgram``).
///
/// An operation declares what it does to grey and to opacity, because encoders act on it: a
/// grey input whose chain keeps R = G = B is written with one colour channel, and an opaque one
/// whose chain keeps alpha at 1 without alpha. A tint that declared `preservesGrey` would lose
/// its colour in the file, so there are no defaults for these two.
///
/// Two optional forms let the compiler merge neighbours instead of running them one by one:
/// - ``matrix``: an affine map of RGBA; neighbouring matrices multiply into one.
/// - ``curve``: one function applied alike to R, G and B, alpha untouched (the lookup-table
///   form: tone curves, gamma, posterize); neighbouring curves compose into one.
public protocol PointOperation: Sendable {
    /// Applies the operation to `count` straight RGBA pixels in place. Values are not clamped
    /// between operations (quantisation happens once, at encode), except alpha to 0…1.
    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int)

    /// Whether a pixel with R = G = B always stays so.
    var preservesGrey: Bool { get }

    /// Whether a pixel with alpha 1 always keeps alpha 1.
    var preservesOpacity: Bool { get }

    /// The operation as an affine colour matrix, when it is one.
    var matrix: ColorMatrix? { get }

    /// The operation as one tone curve on R, G and B, when it is one.
    var curve: ToneCurve? { get }

    /// True when the operation changes no pixel; the compiler then drops it.
    var isIdentity: Bool { get }

    /// Whether each colour channel's result depends on that channel's own value only, alpha
    /// untouched (tone curves, per-channel curves and tables, a diagonal matrix): a run of
    /// such operations on 8-bit input is then exactly three 256-entry tables (``ChannelTableKernel``).
    var isChannelwise: Bool { get }
}

extension PointOperation {
    public var matrix: ColorMatrix? { nil }
    public var curve: ToneCurve? { nil }
    public var isIdentity: Bool { false }
    public var isChannelwise: Bool { false }
}
