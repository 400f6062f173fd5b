import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// Small pictures of image files for people to look at (the contact sheet), made by the
/// daemon's own path: the file opened as an input is (``InputFile``), planned from its header
/// under the limits (``JobPlan``), decoded with shrink-on-load, resized and encoded in memory
/// (``OutputRendering``). Pixels are turned upright and converted to sRGB as outputs are, and
/// no metadata is kept; a camera RAW's thumbnail comes from its embedded JPEG preview. With a
/// ``ThumbnailCache``, a file whose content was thumbnailed before is read back from it instead.
public struct Thumbnailer: Sendable {
    /// A thumbnail and what was read to make it.
    public struct Thumbnail: Sendable {
        /// The encoded picture.
        public var bytes: [UInt8]
        public var width: Int
        public var height: Int
        /// The SHA-256 of the file the picture was made from, to tell it from the file a
        /// report describes; nil when it was not asked for and no cache needed it.
        public var sha256: String?
        /// Whether it was read from the cache rather than made.
        public var cached: Bool
    }

    /// The longest side of a thumbnail, in pixels (smaller images keep their size).
    public let box: Int
    /// JPEG or WebP: what a browser shows, small.
    public let format: ImageFormat
    public let quality: Int
    public let limits: Limits
    public let executor: StripExecutor
    public let cache: ThumbnailCache?
    private let output: OutputConfig

    public init(box: Int, format: ImageFormat = .jpeg, quality: Int = 75, limits: Limits = Limits(),
                executor: StripExecutor = StripExecutor(), cache: ThumbnailCache? = nil) {
        precondition(box > 0 && (format == .jpeg || format == .webp))
        (self.box, self.format, self.quality, self.limits, self.executor, self.cache) = (box, format, quality, limits, executor, cache)
        // A chain the registry itself parses, so the thumbnail is resized as any output is.
        let chain = try! ChainSyntax.parse("resize width=\(box) height=\(box) fit=inside no_upscale=true")
        var encoding = OutputEncoding()
        encoding.metadata = .strip
        // A camera RAW's thumbnail is its embedded JPEG preview, as photo browsers show it: a
        // fraction of the cost of developing it (developed when it has none).
        encoding[.rawPreview] = .boolean(true)
        output = OutputConfig(pathTemplate: "{stem}.thumbnail.\(format.fileExtension)", format: format, quality: quality,
                              encoding: encoding, chain: chain)
    }

    /// The thumbnail of the file at `path` (a link is followed: the caller named it), or the
    /// error a report would give for it as an input (`io` for a missing file, `corrupt`, …).
    /// The file is hashed only when `hash` asks for it or the cache needs the key.
    public func thumbnail(of path: String, hash: Bool = true) throws(ReportError) -> Thumbnail {
        let input: InputFile
        do throws(InputFile.OpenError) {
            input = try InputFile.open(path, maxBytes: limits.maxFileBytes, lease: false, followLinks: true)
        } catch {
            throw JobRunner.reportError(for: error, path: path, limits: limits)
        }
        defer { withExtendedLifetime(input) {} }  // a TIFF is read from its descriptor
        let sha256 = hash || cache != nil ? try? input.sha256() : nil
        let key = sha256.map { "\($0)-\(box)-\(format.rawValue)-q\(quality).\(format.fileExtension)" }
        if let cache, let key, let bytes = cache.read(key),
           let info = try? ImageCodec.readInfo(bytes), info.format == format, max(info.width, info.height) <= box {
            return Thumbnail(bytes: bytes, width: info.width, height: info.height, sha256: sha256, cached: true)
        }
        let header: ImageInfo
        do throws(CodecError) {
            header = try ImageCodec.readInfo(input.content)
        } catch {
            throw ReportError(code: error.code, message: error.message)
        }
        let plan = try JobPlan.make(header: header, outputs: [output],
                                    naming: .init(relativePath: FileIO.fileName(of: path), watchName: "thumbnail", mirrorFolders: false),
                                    seed: 0, limits: limits, executor: executor)
        let rendered = try OutputRendering.render(input: input.content, plan: plan.outputs[0], metadata: ImageMetadata(),
                                                  limits: limits, deadline: .after(seconds: limits.maxSeconds), executor: executor)
        if let cache, let key { cache.write(key, rendered.bytes) }
        return Thumbnail(bytes: rendered.bytes, width: rendered.size.width, height: rendered.size.height, sha256: sha256, cached: false)
    }
}
