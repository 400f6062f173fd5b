import Foundation

/// Where an asset came from, as the report records it.
public struct AssetIdentity: Sendable, Hashable {
    /// The absolute path it was read from.
    public var path: String
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}

/// An image named by a filter parameter (a watermark, a mask, a texture), as the core receives
/// it: pixels already decoded, upright and in sRGB, held whole and shared by every job that uses
/// it. The core never opens the file (the codecs' asset store does).
public protocol ImageAsset: AnyObject, Sendable {
    var identity: AssetIdentity { get }
    var size: Size { get }
    /// Every pixel has alpha 1.
    var isOpaque: Bool { get }
    /// Every pixel has R = G = B.
    var isGrey: Bool { get }
    /// Pixel (`x`, `y`), premultiplied float, for `x`, `y` inside ``size``.
    func pixel(_ x: Int, _ y: Int) -> Pixel
    /// Bytes the pixels hold (the memory budget counts them once, however many jobs use them).
    var byteCount: Int { get }
}

extension ImageAsset {
    /// Pixel (`x`, `y`), reads outside the image answered by `edge` (transparent: zero).
    @inlinable public func pixel(_ x: Int, _ y: Int, edge: EdgeMode) -> Pixel {
        guard let xx = edge.index(x, extent: size.width), let yy = edge.index(y, extent: size.height) else { return .zero }
        return pixel(xx, yy)
    }
}

/// A data file named by a filter parameter (a `.cube` LUT, a font): its bytes, read once.
public struct DataAsset: Sendable, Hashable {
    public var identity: AssetIdentity
    public var bytes: [UInt8]

    public init(identity: AssetIdentity, bytes: [UInt8]) {
        self.identity = identity
        self.bytes = bytes
    }
}

/// Finds the assets that image and data-file parameters name. The codecs' asset store is the
/// real one; tests may hand in pixels they made.
public protocol AssetResolver: Sendable {
    /// The image at `path` (absolute), loaded or from the cache; the error says why not
    /// (missing, unreadable, not an image, too large).
    func image(at path: String) throws(ParameterError) -> any ImageAsset
    /// The bytes of the file at `path` (absolute).
    func data(at path: String) throws(ParameterError) -> DataAsset
    /// The image file or SVG document at `path` (absolute); see ``GraphicAsset``.
    func graphic(at path: String) throws(ParameterError) -> GraphicAsset
    /// The same files, refused when larger than a config's `limits:` (`max_pixels`,
    /// `max_file_bytes`); the config reader switches to it once it has read them.
    func limited(maxPixels: Int, maxFileBytes: Int) -> any AssetResolver
}

/// What a graphic parameter names: an image, decoded like any other, or an SVG document, kept
/// as bytes so that it can be rendered at the size it is drawn.
public enum GraphicAsset: Sendable {
    case image(any ImageAsset)
    case svg(DataAsset)

    public var identity: AssetIdentity {
        switch self {
        case .image(let image): image.identity
        case .svg(let document): document.identity
        }
    }
}

extension AssetResolver {
    /// An image file at `path`. A resolver that reads SVG documents gives them as `.svg` itself
    /// (the codecs' `AssetStore` tells them by content, as it tells inputs), so that there is one
    /// rule for what an SVG is.
    public func graphic(at path: String) throws(ParameterError) -> GraphicAsset {
        .image(try image(at: path))
    }
}

extension AssetResolver {
    /// A resolver without limits of its own ignores them.
    public func limited(maxPixels: Int, maxFileBytes: Int) -> any AssetResolver { self }
}

/// The resolver of a program that has no asset store: every file parameter is refused.
public struct NoAssets: AssetResolver {
    public init() {}
    public func image(at path: String) throws(ParameterError) -> any ImageAsset {
        throw ParameterError("\(path): no asset store to load files from")
    }
    public func data(at path: String) throws(ParameterError) -> DataAsset {
        throw ParameterError("\(path): no asset store to load files from")
    }
}
