import CDarkroomCodecs
import DarkroomCore

/// A PNG's strips deflated on the threads that render them, each a segment of its own (no
/// dictionary from the strip before, its first row filtered as if nothing were above it) that
/// the writer joins into one zlib stream: deflate, the bulk of writing a PNG, runs on every
/// core the render has instead of the writing thread alone, and the file is the same whatever
/// the threads. Strips smaller than ``minimumSegmentBytes`` are left to the writer, which
/// deflates them in one continuing stream (a thumbnail's strips would compress worse apart).
struct PNGStrips: Sendable {
    let height: Int
    let rowBytes: Int
    let filter: dr_png_filter_options
    let level: Int32

    /// Strips of fewer filtered bytes go to the writer whole: below about 64 KB, the 32 KB
    /// window a segment starts without costs more than a per cent of the file.
    static let minimumSegmentBytes = 64 << 10

    init(size: Size, layout: PixelConversion.Layout, level: Int, effort: Int) {
        height = size.height
        rowBytes = size.width * layout.bytesPerPixel
        filter = dr_png_filter_options(bytes_per_pixel: Int32(layout.bytesPerPixel), sixteen_bit: layout.sixteenBit ? 1 : 0,
                                       effort: Int32(effort))
        self.level = Int32(level)
    }

    /// The strip of rows `rows` (`bytes`, quantised) as a segment, or nil when it is too small
    /// for one or could not be made (the writer then deflates the rows itself, and reports
    /// what fails).
    func segment(_ bytes: [UInt8], rows: Range<Int>) -> EncodedStrip? {
        let raw = rows.count * (rowBytes + 1)
        guard raw >= Self.minimumSegmentBytes else { return nil }
        var filter = filter
        var segment = dr_png_segment()
        var ok = false
        let capacity = dr_png_segment_bound(raw, level)
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var message = [CChar](repeating: 0, count: 160)
            ok = bytes.withUnsafeBufferPointer { source in
                dr_png_segment_make(source.baseAddress, rowBytes, rowBytes, Int32(rows.count), &filter, level,
                                    rows.upperBound == height ? 1 : 0, buffer.baseAddress, capacity, &segment,
                                    &message, message.count) == DR_OK
            }
            initialized = ok ? segment.length : 0
        }
        return ok ? EncodedStrip(bytes: out, segment: segment) : nil
    }
}
