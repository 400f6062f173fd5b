import DarkroomCore
import Foundation

/// A small picture of an image, made as the image's rows stream past: a box average, every
/// pixel counted once in the cell of the small picture it falls in. A render that already has
/// the pixels (the decoder's rows, the rows going to the encoder) thus yields a thumbnail for a
/// few additions a pixel, where making one afterwards means decoding the file again.
///
/// Rows may be added from several threads at once, in any order, each row once.
public final class ThumbnailReducer: @unchecked Sendable {
    /// The size of the image whose rows are added.
    public let sourceSize: Size
    /// The size of the picture made (as stored: ``image(orientation:)`` turns it upright).
    public let size: Size
    /// The first source column of each cell, and one past the last cell's.
    private let columnStarts: [Int]
    private let cellOfRow: [Int]
    /// Premultiplied RGBA sums, one per cell.
    private var sums: [Pixel]
    /// 8-bit rows' sums, four a cell: red, green, blue (0…255 each) and the pixel count.
    private var eightBitSums: [UInt32]
    private var rowsAdded = 0
    private let lock = NSLock()

    /// `size` (at most `sourceSize` on each side) is usually ``fitted(_:box:)`` of the image
    /// before any shrink-on-load, so the picture has the size a resize of the full image makes.
    public init(sourceSize: Size, size: Size) {
        precondition(sourceSize.area > 0 && size.area > 0 && size.width <= sourceSize.width && size.height <= sourceSize.height)
        (self.sourceSize, self.size) = (sourceSize, size)
        // Cell c holds the columns x with x * cells / width == c.
        columnStarts = (0...size.width).map { ($0 * sourceSize.width + size.width - 1) / size.width }
        cellOfRow = (0..<sourceSize.height).map { $0 * size.height / sourceSize.height }
        sums = Array(repeating: .zero, count: size.area)
        eightBitSums = Array(repeating: 0, count: size.area * 4)
    }

    /// The size `resize width=box height=box fit=inside no_upscale=true` makes of `size`.
    public static func fitted(_ size: Size, box: Int) -> Size {
        let s = min(1, Double(box) / Double(size.width), Double(box) / Double(size.height))
        return Size(width: min(box, max(1, Int((Double(size.width) * s).rounded()))),
                    height: min(box, max(1, Int((Double(size.height) * s).rounded()))))
    }

    /// Adds rows `y ..< y + count` of premultiplied float RGBA, `stride` pixels apart.
    public func add(rows y: Int, count: Int, pixels: UnsafePointer<Pixel>, stride: Int) {
        lock.lock()
        defer { lock.unlock() }
        sums.withUnsafeMutableBufferPointer { sums in
            columnStarts.withUnsafeBufferPointer { starts in
                for row in 0..<count {
                    let cells = sums.baseAddress! + cellOfRow[y + row] * size.width, line = pixels + row * stride
                    for c in 0..<size.width {
                        var sum = Pixel.zero
                        for x in starts[c]..<starts[c + 1] { sum += line[x] }
                        cells[c] += sum
                    }
                }
            }
        }
        rowsAdded += count
    }

    /// Adds rows `y ..< y + count` of opaque 8-bit RGB, `rowBytes` apart.
    public func add(rgb8Rows y: Int, count: Int, samples: UnsafePointer<UInt8>, rowBytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        eightBitSums.withUnsafeMutableBufferPointer { sums in
            columnStarts.withUnsafeBufferPointer { starts in
                for row in 0..<count {
                    let cells = sums.baseAddress! + cellOfRow[y + row] * size.width * 4, line = samples + row * rowBytes
                    for c in 0..<size.width {
                        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                        for x in starts[c]..<starts[c + 1] {
                            let p = line + 3 &* x
                            r &+= UInt32(p[0]); g &+= UInt32(p[1]); b &+= UInt32(p[2])
                        }
                        let cell = cells + 4 * c
                        cell[0] &+= r; cell[1] &+= g; cell[2] &+= b; cell[3] &+= UInt32(starts[c + 1] - starts[c])
                    }
                }
            }
        }
        rowsAdded += count
    }

    /// Adds the rows of a strip on its way to an encoder.
    public func add(_ rows: RegionView) {
        let r = rows.rect
        precondition(r.x == 0 && r.width == sourceSize.width)
        // The view's rows may lie apart; one row at a time.
        for y in r.y..<r.maxY { add(rows: y, count: 1, pixels: rows.pointer(0, y), stride: r.width) }
    }

    /// The same for a strip of 8-bit rows.
    public func add(_ rows: RGB8RegionView) {
        let r = rows.rect
        precondition(r.x == 0 && r.width == sourceSize.width)
        for y in r.y..<r.maxY { add(rgb8Rows: y, count: 1, samples: rows.pointer(0, y), rowBytes: 3 * r.width) }
    }

    /// The picture, turned upright by `orientation`; nil until every row was added.
    public func image(orientation: Orientation = .up) -> Image? {
        lock.lock()
        defer { lock.unlock() }
        guard rowsAdded == sourceSize.height else { return nil }
        var rows = [Float](repeating: 0, count: size.height)
        for c in cellOfRow { rows[c] += 1 }
        let upright = orientation.uprightSize(size)
        return Image(width: upright.width, height: upright.height) { u, v in
            let (x, y) = orientation.storedPixel(u, v, stored: size)
            let i = y * size.width + x, e = 4 * i
            let eightBit = Pixel(Float(eightBitSums[e]), Float(eightBitSums[e + 1]), Float(eightBitSums[e + 2]), 0) / 255
                + Pixel(0, 0, 0, Float(eightBitSums[e + 3]))
            return (sums[i] + eightBit) / (Float(columnStarts[x + 1] - columnStarts[x]) * rows[y])
        }
    }
}
