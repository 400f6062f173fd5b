@testable import DarkroomCore
import Foundation

/// A minimal reader and writer of binary Netpbm images (PGM `P5`, PPM `P6`, PAM `P7`, and PFM `PF`
/// in PFM.swift), so that core tests can exchange images with `vips` and ImageMagick without the
/// codecs module.
///
/// Files hold straight (unpremultiplied) colour at 8 or 16 bits; `Image` holds premultiplied
/// float, so writing unpremultiplies and reading premultiplies.
enum Netpbm {
    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    /// PAM with TUPLTYPE RGB_ALPHA, 8 bits per channel (ImageMagick and vips read it).
    static func pam(_ image: Image) -> Data {
        var data = Data("P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.reserveCapacity(data.count + image.pixels.count * 4)
        for p in image.pixels {
            let s = p.unpremultiplied
            for c in 0..<4 { data.append(byte(s[c])) }
        }
        return data
    }

    /// PPM, 8 bits per channel. Alpha is dropped after compositing over black, which is what the
    /// premultiplied colour already is.
    static func ppm(_ image: Image) -> Data {
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        data.reserveCapacity(data.count + image.pixels.count * 3)
        for p in image.pixels {
            for c in 0..<3 { data.append(byte(p[c])) }
        }
        return data
    }

    /// Reads P5, P6 or P7 (1 to 4 channels, 8 or 16 bits), or little-endian colour PF. Grey is
    /// spread to RGB; missing alpha is 1.
    static func read(_ data: Data) throws -> Image {
        let bytes = [UInt8](data)
        var pos = 0
        func token() throws -> String {
            while pos < bytes.count {
                if bytes[pos] == UInt8(ascii: "#") {
                    while pos < bytes.count, bytes[pos] != 10 { pos += 1 }
                } else if isSpace(bytes[pos]) {
                    pos += 1
                } else { break }
            }
            let start = pos
            while pos < bytes.count, !isSpace(bytes[pos]) { pos += 1 }
            guard pos > start else { throw FormatError(description: "truncated Netpbm header") }
            return String(decoding: bytes[start..<pos], as: UTF8.self)
        }
        func number() throws -> Int {
            let t = try token()
            guard let n = Int(t) else { throw FormatError(description: "expected a number in the header, got \(t)") }
            return n
        }
        let magic = try token()
        var width = 0, height = 0, depth = 0, maxval = 0
        switch magic {
        case "P5", "P6":
            (width, height, maxval) = (try number(), try number(), try number())
            depth = magic == "P5" ? 1 : 3
        case "P7":
            while true {
                let key = try token()
                if key == "ENDHDR" { break }
                switch key {
                case "WIDTH": width = try number()
                case "HEIGHT": height = try number()
                case "DEPTH": depth = try number()
                case "MAXVAL": maxval = try number()
                default: _ = try token()
                }
            }
        case "PF":
            (width, height) = (try number(), try number())
            let scale = try token()
            guard let s = Double(scale), s < 0 else {
                throw FormatError(description: "expected a little-endian colour PFM, got scale \(scale)")
            }
            return try pfmBody(bytes[min(pos + 1, bytes.count)...], width: width, height: height)
        default:
            throw FormatError(description: "not a binary Netpbm file (magic \(magic))")
        }
        pos += 1  // the single whitespace byte after the header
        let wide = maxval > 255
        let sampleBytes = wide ? 2 : 1
        guard (1...4).contains(depth), width > 0, height > 0,
              bytes.count - pos >= width * height * depth * sampleBytes else {
            throw FormatError(description: "bad Netpbm size or depth")
        }
        let scale = 1 / Float(maxval)
        var pixels = [Pixel]()
        pixels.reserveCapacity(width * height)
        for _ in 0..<(width * height) {
            var v = [Float](repeating: 0, count: depth)
            for c in 0..<depth {
                let raw = wide ? Int(bytes[pos]) << 8 | Int(bytes[pos + 1]) : Int(bytes[pos])
                v[c] = Float(raw) * scale
                pos += sampleBytes
            }
            let grey = depth <= 2
            let straight = Pixel(v[0], grey ? v[0] : v[1], grey ? v[0] : v[2],
                                 depth == 2 ? v[1] : depth == 4 ? v[3] : 1)
            pixels.append(straight.premultiplied)
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    private static func byte(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || (9...13).contains(b) }
}
