import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// JPEG XL through `darkroom process`: a JPEG archived with `--lossless-jpeg` comes back from
/// djxl byte for byte; a JPEG XL in, resized, and a photo out as JPEG XL read back by djxl; a
/// truncated file fails with its code in the report; and the encoder's whole-image memory stays
/// within what the memory estimate counts for it.
final class JPEGXLEndToEndTests: XCTestCase {
    static let cjxl = ("cjxl", "libjxl-tools")
    static let djxl = ("djxl", "libjxl-tools")

    private func photo(_ s: Scratch, _ name: String, width: Int, height: Int) throws -> String {
        let path = s.path(name)
        _ = try ReferenceTool.output(ReferenceTool.convert, ["-seed", "3", "-size", "\(width / 4)x\(height / 4)", "plasma:fractal",
                                                             "-resize", "\(width)x\(height)!", "-quality", "90", path])
        return path
    }

    func testLosslessJPEGArchiveRebuildsTheJPEG() throws {
        let s = Scratch()
        let jpeg = try photo(s, "photo.jpg", width: 800, height: 600)
        let result = try darkroom(["process", "--lossless-jpeg", jpeg, "-o", s.path("photo.jxl"), "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let jxl = try XCTUnwrap(s.read("photo.jxl"))
        let original = try XCTUnwrap(s.read("photo.jpg"))
        XCTAssertLessThan(jxl.count, original.count, "the archive is smaller than the JPEG")
        _ = try ReferenceTool.output(Self.djxl, [s.path("photo.jxl"), s.path("rebuilt.jpg")])
        XCTAssertEqual(s.read("rebuilt.jpg"), original, "djxl gives back the JPEG byte for byte")
        let report = try XCTUnwrap(s.report("reports/photo.jpg.json"))
        XCTAssertEqual(report["status"] as? String, "ok")
        XCTAssertEqual((report["input"] as? [String: Any])?["format"] as? String, "jpeg")
        // With a chain, the command refuses before touching anything.
        let refused = try darkroom(["process", "--lossless-jpeg", "--chain", "resize width=100", jpeg, "-o", s.path("no.jxl")])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("chain must be empty"), refused.stderr)
        XCTAssertFalse(s.exists("no.jxl"))
    }

    /// A JPEG XL (cjxl's) resized into a JPEG is the same picture as its djxl decode resized;
    /// a PNG written as JPEG XL reads back through djxl within 38 dB.
    func testJPEGXLInAndOut() throws {
        let s = Scratch()
        let png = s.path("in.png")
        _ = try ReferenceTool.output(ReferenceTool.convert, [try photo(s, "src.jpg", width: 640, height: 480), png])
        _ = try ReferenceTool.output(Self.cjxl, [png, s.path("in.jxl"), "-d", "1"])
        _ = try ReferenceTool.output(Self.djxl, [s.path("in.jxl"), s.path("djxl.png")])
        let resized = try darkroom(["process", "--chain", "resize width=320", s.path("in.jxl"), "-o", s.path("small.png")])
        XCTAssertEqual(resized.status, 0, resized.stderr)
        let reference = try darkroom(["process", "--chain", "resize width=320", s.path("djxl.png"), "-o", s.path("ref.png")])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let small = try ImageCodec.decode(try XCTUnwrap(s.read("small.png"))).image
        XCTAssertEqual(small.size, Size(width: 320, height: 240))
        XCTAssertEqual(psnr(small, try ImageCodec.decode(try XCTUnwrap(s.read("ref.png"))).image), .infinity)

        let out = try darkroom(["process", png, "-o", s.path("out.jxl")])
        XCTAssertEqual(out.status, 0, out.stderr)
        _ = try ReferenceTool.output(Self.djxl, [s.path("out.jxl"), s.path("back.png")])
        let back = try ImageCodec.decode(try XCTUnwrap(s.read("back.png"))).image
        XCTAssertGreaterThan(psnr(back, try ImageCodec.decode(try XCTUnwrap(s.read("in.png"))).image), 38)
    }

    func testATruncatedJPEGXLFailsWithItsCode() throws {
        let s = Scratch()
        let png = try photo(s, "src.jpg", width: 320, height: 240)
        _ = try ReferenceTool.output(Self.cjxl, [png, s.path("whole.jxl"), "-d", "1", "--lossless_jpeg=0"])
        let whole = try XCTUnwrap(s.read("whole.jxl"))
        XCTAssertTrue(FileManager.default.createFile(atPath: s.path("cut.jxl"), contents: Data(whole.prefix(whole.count / 2))))
        let result = try darkroom(["process", s.path("cut.jxl"), "-o", s.path("cut.png"), "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 1)
        let report = try XCTUnwrap(s.report("reports/cut.jxl.json"))
        XCTAssertEqual((report["error"] as? [String: Any])?["code"] as? String, "truncated", "\(report)")
        XCTAssertFalse(s.exists("cut.png"))
    }

    /// libjxl holds the whole image while it encodes: the process's peak resident memory over a
    /// tiny job's stays within what ImageEncoder.heldBytes declares for the output (which the
    /// daemon's memory budget admits jobs by), plus 16 MiB for the pipeline's bands.
    func testTheEncodersMemoryIsWithinTheEstimate() throws {
        let s = Scratch()
        let (width, height) = (1600, 1200)
        let png = s.path("big.png")
        _ = try ReferenceTool.output(ReferenceTool.convert, [try photo(s, "big.jpg", width: width, height: height), png])
        _ = try ReferenceTool.output(ReferenceTool.convert, [png, "-resize", "32x24", s.path("tiny.png")])
        let (tiny, tinyKiB) = try darkroomPeakRSS(["process", s.path("tiny.png"), "-o", s.path("tiny.jxl")])
        XCTAssertEqual(tiny.status, 0, tiny.stderr)
        let (big, bigKiB) = try darkroomPeakRSS(["process", png, "-o", s.path("big.jxl")])
        XCTAssertEqual(big.status, 0, big.stderr)
        let declared = ImageEncoder.heldBytes(size: Size(width: width, height: height), options: EncodeOptions(format: .jxl),
                                              traits: OutputTraits(alpha: false))
        let used = (bigKiB - tinyKiB) * 1024
        XCTAssertGreaterThan(used, declared / 4, "libjxl holds the image: \(used) bytes over a tiny job's")
        XCTAssertLessThanOrEqual(used, declared + 16 << 20, "\(used) bytes over a tiny job's; the estimate declares \(declared)")
    }
}
