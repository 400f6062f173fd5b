/// Where a pipeline's pixels come from: a decoder that hands out rows top to bottom, once.
///
/// The pipeline calls it from one thread at a time (whichever strip first needs the next rows)
/// and never asks for a row twice, so a sequential decoder (libjpeg's scanlines, libpng's rows)
/// needs no locking of its own.
public protocol RowSource: AnyObject {
    /// The size of the image it delivers (after any crop or shrink on load).
    var size: Size { get }
    /// Whether every pixel is opaque (no alpha channel, no transparency).
    var isOpaque: Bool { get }
    /// Samples are exactly 8-bit values (so a compact copy of them loses nothing).
    var isEightBit: Bool { get }
    /// Fills the next `count` rows as premultiplied float RGBA, `stride` pixels apart.
    func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws
}

/// A source that can also hand out its rows as the 8-bit RGB samples it decoded, so a node that
/// keeps its input whole and compact (a rotation) takes them without a round trip through float.
package protocol CompactRowSource: RowSource {
    /// Fills the next `count` rows as 8-bit RGB, `rowBytes` apart; only when opaque and 8-bit.
    func readRGB8Rows(count: Int, into target: UnsafeMutablePointer<UInt8>, rowBytes: Int) throws
}

/// Turns rendered strips into what an encoder takes. Called from the render threads, several at
/// once, so it reads only its own immutable properties.
public protocol StripQuantiser: Sendable {
    associatedtype Strip: Sendable
    func prepare(_ rows: RegionView) -> Strip

    /// Whether it takes opaque 8-bit RGB rows as they are (``prepare(rgb8:)``): an encoder whose
    /// samples are 8-bit RGB. The last node may then write 8 bits (``RGB8OutputKernel``).
    var takesRGB8Rows: Bool { get }

    /// The strip from opaque 8-bit RGB rows; called only when ``takesRGB8Rows``.
    func prepare(rgb8 rows: RGB8RegionView) -> Strip
}

extension StripQuantiser {
    public var takesRGB8Rows: Bool { false }

    public func prepare(rgb8 rows: RGB8RegionView) -> Strip {
        preconditionFailure("\(Self.self) does not take 8-bit RGB rows")
    }
}

/// Where a pipeline's pixels go: an encoder that takes strips top to bottom, from one thread.
public protocol StripSink {
    associatedtype Quantiser: StripQuantiser
    var quantiser: Quantiser { get }
    /// Takes the strip holding rows `rows`, in order.
    mutating func write(_ strip: Quantiser.Strip, rows: Range<Int>) throws
}
