/// One input of a kernel: its size and how reads past its edges are answered.
public struct KernelInput: Sendable, Hashable {
    public var size: Size
    var edge: EdgeMode

    public init(size: Size, edge: EdgeMode) {
        self.size = size
        self.edge = edge
    }
}

/// What one step of a filter computes, for input sizes fixed when the pipeline is built: the
/// contract between filters and the executor (Halide's split between *what* and *how*).
///
/// The executor decides which rectangles to render, in which order and on which threads; a
/// kernel decides nothing of that. Invariants every kernel keeps, and that the contract test
/// (`KernelContractTests`) checks for every registered filter:
/// - `render` writes every pixel of `target.rect` and nothing outside it.
/// - `render` reads only the rectangles `inputRegions(for:)` declared for that output, and the
///   result for any rectangle equals the same rectangle of a whole-image render (so strips,
///   tiles and threads cannot change a pixel).
/// - The output has exactly `outputSize` pixels; `inputs[i].size` is the size input `i` has.
/// - A kernel holds no mutable state: `render` may run on many threads at once.
public protocol PixelKernel: Sendable {
    var outputSize: Size { get }
    var inputs: [KernelInput] { get }

    /// For each input, the pixels needed to produce `output`. May reach past the input's
    /// bounds; those reads are answered by the input's ``EdgeMode``.
    func inputRegions(for output: Rect) -> [Rect]

    /// Fills `target.rect` from views of exactly the regions `inputRegions(for: target.rect)`.
    func render(_ inputs: [RegionView], into target: RegionTarget)

    /// Whether an opaque input always gives an opaque output (encoders then drop alpha).
    var preservesOpacity: Bool { get }

    /// Whether the output is opaque when input `i` is opaque exactly where `opaqueInputs[i]`
    /// says; by default, when every input is and the kernel preserves opacity.
    func isOpaque(givenOpaqueInputs opaqueInputs: [Bool]) -> Bool

    /// Whether grey inputs (R = G = B in every pixel) always give a grey output: true for a
    /// kernel that treats the three colour channels alike (geometry, resampling, blurs,
    /// convolution), false when it paints a colour of its own (a coloured background or shadow).
    /// Encoders then write one colour channel.
    var preservesGrey: Bool { get }
    /// Whether the executor may cut a band of this kernel into column pieces rendered by several
    /// threads at once, each with views of its own piece's regions (``PipelineRun``'s pieces):
    /// declared by kernels checked to read their views only by absolute coordinates.
    var rendersInColumnPieces: Bool { get }
    /// Whether the kernel's work for a band grows with how far it reads beyond the band's rows
    /// (running sums start over the rows above each band): the scheduler then makes the bands
    /// as tall as that reach, so the start is paid once per reach of rows rather than per band.
    var startsOverItsReach: Bool { get }

    /// Bytes the kernel holds for the whole render beside its bands, measured on what it holds
    /// (a drawn graphic's or a text block's raster): the memory estimate adds them, and a render
    /// counts them as held from its start, so the estimate-covers-peak checks see them.
    var heldBytes: Int { get }

    /// Why the kernel cannot render, or nil (a graphic that could not be drawn, or that would be
    /// drawn larger than a raster may be): the render stops with it before anything is decoded.
    var failure: String? { get }
}

extension PixelKernel {
    public var preservesOpacity: Bool { true }

    public var preservesGrey: Bool { true }
    public var rendersInColumnPieces: Bool { false }
    public var startsOverItsReach: Bool { false }
    public var heldBytes: Int { 0 }
    public var failure: String? { nil }

    public func isOpaque(givenOpaqueInputs opaqueInputs: [Bool]) -> Bool {
        preservesOpacity && opaqueInputs.allSatisfy { $0 }
    }
}

/// A kernel that reads its one input at scattered places (a rotation reads a slanted band of
/// rows for every output row). The executor then keeps that input whole, in a compact 8- or
/// 16-bit form, instead of as float strips, and fills it in row order as the source decodes.
protocol RandomAccessKernel: PixelKernel {
    /// Fills `target.rect` from `input`, whose rows up to `inputRegions(for:)[0].maxY` are ready.
    func render(from input: CompactImage, into target: RegionTarget)

    /// True when the kernel reads its input bottom-up whatever the band height (a vertical
    /// flip, a half turn): the input is then kept whole even when one band would hold it, so a
    /// small image and a large band give the same (compact-precision) pixels as small bands do.
    var alwaysKeepsInputWhole: Bool { get }
}

extension RandomAccessKernel {
    var alwaysKeepsInputWhole: Bool { false }
}
