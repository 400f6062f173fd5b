@testable import DarkroomCore
import Foundation

/// Portable float map (`PF`, colour, little-endian), the float member of the Netpbm family: vips
/// reads and writes it without any codec library.
///
/// Rows are stored first-to-last = top-to-bottom, which is how vips 8.14 reads and writes PFM (the
/// format's spec says bottom-up; what matters is that vips and this helper agree, and the
/// vertically asymmetric kernels in the area tests would show it if they did not).
extension Netpbm {
    /// The premultiplied RGB, i.e. composited over black, as `ppm` does.
    static func pfm(_ image: Image) -> Data {
        var data = Data("PF\n\(image.width) \(image.height)\n-1.0\n".utf8)
        data.reserveCapacity(data.count + image.pixels.count * 12)
        for p in image.pixels {
            for c in 0..<3 { withUnsafeBytes(of: p[c].bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        }
        return data
    }

    /// The opaque image in a PFM body of `width` × `height` little-endian float RGB samples.
    static func pfmBody(_ bytes: ArraySlice<UInt8>, width: Int, height: Int) throws -> Image {
        guard bytes.count >= width * height * 12 else { throw FormatError(description: "PFM body too short") }
        let floats = bytes.withUnsafeBytes { raw in
            (0..<width * height * 3).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        return Image(width: width, height: height) { x, y in
            let i = (y * width + x) * 3
            return Pixel(floats[i], floats[i + 1], floats[i + 2], 1)
        }
    }
}
