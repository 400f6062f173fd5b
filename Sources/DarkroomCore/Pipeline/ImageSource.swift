/// An in-memory ``Image`` as a pipeline's source (tests, and callers that already hold pixels).
public final class ImageSource: RowSource {
    private let image: Image
    private let region: Rect
    private var nextRow: Int

    /// Delivers `crop` of `image` (all of it when nil).
    public init(_ image: Image, crop: Rect? = nil) {
        self.image = image
        region = crop ?? image.bounds
        nextRow = region.y
    }

    public var size: Size { region.size }
    public lazy var isOpaque: Bool = image.isOpaque
    public var isEightBit: Bool { false }

    public func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        image.pixels.withUnsafeBufferPointer { pixels in
            for r in 0..<count {
                let row = pixels.baseAddress! + ((nextRow + r) * image.width + region.x)
                (target + r * stride).update(from: row, count: region.width)
            }
        }
        nextRow += count
    }
}

/// Collects a pipeline's output as an ``Image``.
struct ImageSink: StripSink {
    struct Copy: StripQuantiser {
        func prepare(_ rows: RegionView) -> [Pixel] {
            var out = [Pixel]()
            out.reserveCapacity(rows.rect.width * rows.rect.height)
            for y in rows.rect.y..<rows.rect.maxY {
                out.append(contentsOf: UnsafeBufferPointer(start: rows.pointer(rows.rect.x, y), count: rows.rect.width))
            }
            return out
        }
    }

    let quantiser = Copy()
    private(set) var pixels: [Pixel] = []
    let size: Size

    init(size: Size) {
        self.size = size
        pixels.reserveCapacity(size.area)
    }

    mutating func write(_ strip: [Pixel], rows: Range<Int>) throws { pixels.append(contentsOf: strip) }

    var image: Image { Image(width: size.width, height: size.height, pixels: pixels) }
}

extension Pipeline {
    /// The pipeline's traits for rendering `image`.
    public static func traits(of image: Image) -> SourceTraits {
        SourceTraits(size: image.size, isOpaque: image.isOpaque, isEightBit: false)
    }

    /// Renders from an in-memory image (which must have the size the pipeline was built for).
    /// Throws only for a bug in a kernel (``PipelineError/kernelReadOutsideItsRegion(_:)``):
    /// there is no decoder, encoder or deadline to fail.
    public func render(_ image: Image, executor: StripExecutor = StripExecutor()) throws -> (image: Image, stats: RenderStats) {
        var sink = ImageSink(size: outputSize)
        let stats = try run(from: ImageSource(image, crop: sourceCrop), into: &sink, executor: executor)
        return (sink.image, stats)
    }
}

extension CompiledChain {
    /// Runs the chain on an in-memory image through the streaming pipeline (analysis stages
    /// measured on the image first). Throws only for a bug in a kernel
    /// (``PipelineError/kernelReadOutsideItsRegion(_:)``): no decoder, encoder or deadline.
    public func run(_ image: Image, executor: StripExecutor = StripExecutor()) throws -> (image: Image, stats: RenderStats) {
        let traits = Pipeline.traits(of: image)
        let chain = try resolvingAnalyses(source: traits, executor: executor) { ImageSource(image, crop: $0) }
        return try Pipeline(chain: chain, source: traits, bandHeight: executor.bandHeight).render(image, executor: executor)
    }
}

extension RegionFilter {
    /// This filter alone on an in-memory image, through the streaming pipeline.
    public func apply(to input: Image, executor: StripExecutor = StripExecutor()) throws -> Image {
        try CompiledChain(stages: [.region(name: Self.descriptor.name, filter: self)]).run(input, executor: executor).image
    }
}
