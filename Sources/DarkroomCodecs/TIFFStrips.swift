import CDarkroomCodecs
import DarkroomCore

/// A striped deflate TIFF's strips (``DR_TIFF_DEFLATE_ROWS`` rows each) compressed on the
/// threads that render them: TIFF strips are independent, so deflate runs on every core the
/// render has, and the file is the same whatever the threads. A render strip that does not
/// hold whole TIFF strips (a band height that is not a multiple of 16) goes to the writer as
/// rows, which it compresses the same way.
struct TIFFStrips: Sendable {
    let height: Int
    let rowBytes: Int
    let samples: Int
    let sixteenBit: Bool

    init(size: Size, layout: PixelConversion.Layout) {
        height = size.height
        rowBytes = size.width * layout.bytesPerPixel
        samples = layout.channels
        sixteenBit = layout.sixteenBit
    }

    /// The TIFF strips of rows `rows` (`bytes`, quantised), or nil when the rows are not whole
    /// strips or a strip could not be made (the writer then compresses the rows, and reports
    /// what fails).
    func strips(_ bytes: [UInt8], rows: Range<Int>) -> EncodedStrip? {
        let n = Int(DR_TIFF_DEFLATE_ROWS)
        guard rows.lowerBound % n == 0, rows.upperBound % n == 0 || rows.upperBound == height else { return nil }
        let bound = dr_tiff_deflate_bound(rowBytes * n)
        var out = [UInt8](), lengths = [Int]()
        out.reserveCapacity(bytes.count / 2)
        var scratch = [UInt8](repeating: 0, count: bound)
        var message = [CChar](repeating: 0, count: 160)
        for y in stride(from: rows.lowerBound, to: rows.upperBound, by: n) {
            let count = min(n, rows.upperBound - y)
            var length = 0
            let status = bytes.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    dr_tiff_deflate_strip(source.baseAddress! + (y - rows.lowerBound) * rowBytes, rowBytes, Int32(count), Int32(samples),
                                          sixteenBit ? 1 : 0, DR_TIFF_DEFLATE_LEVEL, target.baseAddress, bound, &length,
                                          &message, message.count)
                }
            }
            guard status == DR_OK else { return nil }
            out.append(contentsOf: scratch[0..<length])
            lengths.append(length)
        }
        return EncodedStrip(bytes: out, tiffStrips: lengths)
    }
}
