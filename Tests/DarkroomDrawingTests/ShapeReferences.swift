@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import Foundation
import XCTest

/// Renders the same shapes with independent tools, as grey coverage (0…1, row-major): librsvg
/// (`rsvg-convert`) from SVG, and ImageMagick's `-draw`. White shapes on black, so a pixel's
/// grey is its coverage.
enum ShapeReferences {
    /// `body` (SVG elements, drawn white on black) rendered by librsvg at `width` × `height`;
    /// with `blur`, then blurred by ImageMagick's Gaussian of that sigma, drawn on a canvas
    /// 4 sigma larger on every side first so that the blur near the edges sees the shapes
    /// beyond them.
    static func svg(_ body: String, width: Int, height: Int, blur sigma: Double = 0) throws -> [Float] {
        let folder = TemporaryFolder(prefix: "darkroom-svg")
        let m = Int((4 * sigma).rounded(.up)), (cw, ch) = (width + 2 * m, height + 2 * m)
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(cw)" height="\(ch)">
            <rect width="\(cw)" height="\(ch)" fill="black"/>
            <g transform="translate(\(m),\(m))">\(body)</g>
            </svg>
            """
        let input = try ReferenceTool.file(Array(svg.utf8), named: "shape.svg", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.rsvgConvert, ["-o", folder.file("shape.png"), input])
        let blur = sigma > 0 ? ["-gaussian-blur", "0x\(sigma)"] : []
        _ = try ReferenceTool.output(ReferenceTool.convert, [folder.file("shape.png"), "-alpha", "off", "-colorspace", "Gray"] + blur
                                     + ["-crop", "\(width)x\(height)+\(m)+\(m)", "+repage", "-depth", "8", folder.file("shape.pgm")])
        return try pgm(folder.bytes("shape.pgm"), width: width, height: height)
    }

    /// ImageMagick's `-draw` primitives (white on black) at `width` × `height`.
    static func magick(_ arguments: [String], width: Int, height: Int) throws -> [Float] {
        let folder = TemporaryFolder(prefix: "darkroom-magick")
        _ = try ReferenceTool.output(ReferenceTool.convert, ["-size", "\(width)x\(height)", "xc:black"] + arguments
                                     + ["-colorspace", "Gray", "-depth", "8", folder.file("shape.pgm")])
        return try pgm(folder.bytes("shape.pgm"), width: width, height: height)
    }

    /// The grey samples of a binary 8-bit PGM (P5) of the expected size.
    static func pgm(_ bytes: [UInt8], width: Int, height: Int) throws -> [Float] {
        var fields = [String](), i = 0
        while fields.count < 4, i < bytes.count {
            while i < bytes.count, bytes[i] == 32 || (9...13).contains(bytes[i]) { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 10 { i += 1 }; continue }
            var field = ""
            while i < bytes.count, !(bytes[i] == 32 || (9...13).contains(bytes[i])) { field.append(Character(UnicodeScalar(bytes[i]))); i += 1 }
            fields.append(field)
        }
        i += 1
        guard fields == ["P5", "\(width)", "\(height)", "255"], bytes.count - i >= width * height else {
            throw ParameterError("not a \(width)×\(height) 8-bit PGM: \(fields)")
        }
        return bytes[i..<(i + width * height)].map { Float($0) / 255 }
    }

    /// darkroom's grey (the red channel of premultiplied output) as coverage, row-major.
    static func grey(_ image: Image) -> [Float] { image.pixels.map { $0[0] } }

    /// A chain of one filter from the shipped registry applied to `image`.
    static func apply(_ chain: String, to image: Image) throws -> Image {
        let resolved = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 1)
        guard resolved.count == 1, let filter = resolved[0].filter as? any RegionFilter else {
            throw ParameterError("\(chain) is not one region filter")
        }
        return try filter.apply(to: image, executor: StripExecutor(bandHeight: 7, concurrency: 2))
    }

    /// The error a chain gets when it is parsed and resolved (`shapes[0].points: draw: …`), or
    /// nil when it loads.
    static func loadError(_ chain: String) -> String? {
        do { _ = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 1) } catch { return error.description }
        return nil
    }

    /// Largest and mean difference, and the share of pixels that differ by more than half
    /// (inside for one, outside for the other).
    static func compare(_ a: [Float], _ b: [Float]) -> (max: Float, mean: Double, flipped: Double) {
        let d = zip(a, b).map { abs($0 - $1) }
        return (d.max() ?? 0, d.reduce(0.0) { $0 + Double($1) } / Double(max(d.count, 1)),
                Double(d.filter { $0 > 0.5 }.count) / Double(max(d.count, 1)))
    }
}
