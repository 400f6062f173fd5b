import CDarkroomCodecs
import DarkroomCore

/// The frames of an animated GIF or WebP, decoded one at a time, each composed on the full
/// canvas with its format's disposal and blending. Only the canvas (and one copy of it) is
/// held, never the frames.
///
/// Not thread-safe: one frame is read while the pipeline renders the one before.
public final class AnimationFrames {
    /// The canvas every frame is composed on.
    public let size: Size
    /// How many frames the file holds.
    public let count: Int
    /// Times the animation is played; 0: forever (a GIF's NETSCAPE2.0 count plus its first play).
    public let loopCount: Int
    public let hasAlpha: Bool
    /// The frames are converted from the file's ICC profile to sRGB (a WebP's, when asked).
    public let convertsColor: Bool
    private let animation: OpaquePointer
    /// The file's bytes: a GIF's are passed again at every call, a WebP's are copied to a fixed
    /// address once, since libwebpdemux keeps a pointer to them.
    private let data: [UInt8]
    private let pinned: UnsafeMutableBufferPointer<UInt8>?

    /// `convertToSRGB`: convert the frames from the file's ICC profile to sRGB with this intent,
    /// as ``ImageDecoder`` converts a still image's rows.
    public init(_ input: ImageInput, limits: DecodeLimits, deadline: Deadline? = nil,
                convertToSRGB: ColorOptions.Intent? = nil) throws(CodecError) {
        guard case .memory(let data) = input.storage else {
            throw CodecError(code: .unsupported, message: "only a GIF or a WebP read into memory is read frame by frame")
        }
        guard data.count <= limits.maxFileBytes else {
            throw CodecError(code: .tooLarge, message: "file is \(data.count) bytes, over the limit of \(limits.maxFileBytes) bytes")
        }
        self.data = data
        if ImageFormat.detect(Array(data.prefix(ImageInput.headLength))) == .webp {
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(data.count, 1))
            _ = copy.initialize(from: data)
            pinned = copy
        } else {
            pinned = nil
        }
        var options = dr_read_options()
        options.max_pixels = UInt64(max(limits.maxPixels, 0))
        options.deadline_ns = deadline?.nanoseconds ?? 0
        if let intent = convertToSRGB {
            options.convert_to_srgb = 1
            options.intent = Int32(intent == .relative ? DR_INTENT_RELATIVE : DR_INTENT_PERCEPTUAL)
        }
        var info = dr_animation_info()
        var pointer: OpaquePointer?
        do throws(CodecError) {
            try Self.withBytes(data, pinned) { (base, length) throws(CodecError) in
                try CBridge.call { dr_animation_open(base, length, &options, &info, &pointer, $0, $1) }
            }
        } catch {
            pinned?.deallocate()
            throw error
        }
        animation = pointer!
        size = Size(width: Int(info.width), height: Int(info.height))
        count = Int(info.frames)
        loopCount = Int(info.loop_count)
        hasAlpha = info.has_alpha != 0
        convertsColor = info.converts_color != 0
    }

    deinit {
        dr_animation_close(animation)
        pinned?.deallocate()
    }

    private static func withBytes<T>(_ data: [UInt8], _ pinned: UnsafeMutableBufferPointer<UInt8>?,
                                     _ body: (UnsafePointer<UInt8>?, Int) throws(CodecError) -> T) throws(CodecError) -> T {
        if let pinned { return try body(UnsafePointer(pinned.baseAddress), data.count) }
        return try data.withUnsafeBufferPointer { (buffer) throws(CodecError) in try body(buffer.baseAddress, buffer.count) }
    }

    /// One composed frame: its rows as a pipeline source, and how long it shows.
    public struct Frame {
        public let source: FrameSource
        /// Milliseconds.
        public let delay: Int
    }

    /// The next frame, delivering `crop` of the canvas (all of it when nil), or nil after the
    /// last. The frame before it is overwritten: its source must be done with.
    public func next(crop: Rect? = nil, opaque: Bool = false) throws(CodecError) -> Frame? {
        var delay: Int32 = 0
        var canvas: UnsafePointer<UInt8>?
        let animation = self.animation
        try Self.withBytes(data, pinned) { (base, length) throws(CodecError) in
            try CBridge.call { dr_animation_next(animation, base, length, &canvas, &delay, $0, $1) }
        }
        guard let canvas else { return nil }
        let region = crop ?? Rect(x: 0, y: 0, width: size.width, height: size.height)
        return Frame(source: FrameSource(canvas: canvas, width: size.width, region: region, opaque: opaque, owner: self),
                     delay: Int(delay))
    }
}

/// A composed frame's rows (straight 8-bit RGBA on the canvas) as a pipeline source.
public final class FrameSource: CompactRowSource {
    private let canvas: UnsafePointer<UInt8>
    private let width: Int
    private let region: Rect
    private var nextRow: Int
    /// Keeps the canvas alive while the pipeline reads it.
    private let owner: AnimationFrames

    init(canvas: UnsafePointer<UInt8>, width: Int, region: Rect, opaque: Bool, owner: AnimationFrames) {
        self.canvas = canvas
        self.width = width
        self.region = region
        self.isOpaque = opaque
        self.owner = owner
        nextRow = region.y
    }

    public var size: Size { region.size }
    /// Said by the caller: a GIF whose every frame covers the canvas without a transparent index.
    public let isOpaque: Bool
    public var isEightBit: Bool { true }

    private func row(_ y: Int) -> UnsafePointer<UInt8> { canvas + (y * width + region.x) * 4 }

    public func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        for r in 0..<count {
            PixelConversion.pixels(from: row(nextRow + r), channels: 4, bytesPerSample: 1, count: region.width,
                                   into: target + r * stride)
        }
        nextRow += count
    }

    public func readRGB8Rows(count: Int, into target: UnsafeMutablePointer<UInt8>, rowBytes: Int) throws {
        for r in 0..<count {
            let from = row(nextRow + r), to = target + r * rowBytes
            for x in 0..<region.width {
                (to + 3 * x).update(from: from + 4 * x, count: 3)
            }
        }
        nextRow += count
    }
}
