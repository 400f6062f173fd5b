import DarkroomCore

/// A decoder whose rows also go to a ``ThumbnailReducer`` as the pipeline reads them: the
/// input's thumbnail from the decode a render makes anyway.
final class ReducingSource: CompactRowSource {
    private let inner: any CompactRowSource
    let reducer: ThumbnailReducer
    private var nextRow = 0

    init(_ inner: any CompactRowSource, reducer: ThumbnailReducer) {
        precondition(inner.size == reducer.sourceSize)
        (self.inner, self.reducer) = (inner, reducer)
    }

    var size: Size { inner.size }
    var isOpaque: Bool { inner.isOpaque }
    var isEightBit: Bool { inner.isEightBit }

    func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        try inner.readRows(count: count, into: target, stride: stride)
        reducer.add(rows: nextRow, count: count, pixels: target, stride: stride)
        nextRow += count
    }

    func readRGB8Rows(count: Int, into target: UnsafeMutablePointer<UInt8>, rowBytes: Int) throws {
        try inner.readRGB8Rows(count: count, into: target, rowBytes: rowBytes)
        reducer.add(rgb8Rows: nextRow, count: count, samples: target, rowBytes: rowBytes)
        nextRow += count
    }
}

/// An encoder whose strips also go to a ``ThumbnailReducer`` as they are quantised: the
/// output's thumbnail from the pixels being written, before any lossy encoding.
struct ReducingSink<Inner: StripSink>: StripSink {
    struct Quantiser: StripQuantiser {
        let inner: Inner.Quantiser
        let reducer: ThumbnailReducer

        func prepare(_ rows: RegionView) -> Inner.Quantiser.Strip {
            reducer.add(rows)
            return inner.prepare(rows)
        }

        var takesRGB8Rows: Bool { inner.takesRGB8Rows }

        func prepare(rgb8 rows: RGB8RegionView) -> Inner.Quantiser.Strip {
            reducer.add(rows)
            return inner.prepare(rgb8: rows)
        }
    }

    var inner: Inner
    let quantiser: Quantiser

    init(_ inner: Inner, reducer: ThumbnailReducer) {
        self.inner = inner
        quantiser = Quantiser(inner: inner.quantiser, reducer: reducer)
    }

    mutating func write(_ strip: Inner.Quantiser.Strip, rows: Range<Int>) throws {
        try inner.write(strip, rows: rows)
    }
}
