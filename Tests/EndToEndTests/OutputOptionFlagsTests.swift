import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom process` takes every output option of the table as a flag, checked as the
/// output's format reads it.
final class OutputOptionFlagsTests: XCTestCase {
    private func input(_ s: Scratch) throws -> String {
        let image = Image(width: 24, height: 16) { x, y in Pixel(Float(x) / 23, Float(y) / 15, 0.3, 1) }
        s.writeInPlace("in.png", try ImageCodec.encode(image, options: .init(format: .png)))
        return s.path("in.png")
    }

    /// `--lossless` writes a WebP whose pixels are those of the same chain written as PNG;
    /// without it they differ.
    func testABooleanFlagReachesTheEncoder() throws {
        let s = Scratch()
        let path = try input(s)
        let png = try darkroom(["process", "--chain", "invert", path, "-o", s.path("out.png")])
        XCTAssertEqual(png.status, 0, png.stderr)
        let reference = try ImageCodec.decode(try XCTUnwrap(s.read("out.png"))).image
        for (flags, exact) in [(["--lossless"], true), ([String](), false)] {
            let result = try darkroom(["process", "--chain", "invert", "--effort=2", path, "-o", s.path("out.webp")] + flags)
            XCTAssertEqual(result.status, 0, result.stderr)
            let written = try ImageCodec.decode(try XCTUnwrap(s.read("out.webp"))).image
            XCTAssertEqual(written.pixels == reference.pixels, exact, "\(flags)")
        }
    }

    /// A bad value names what the format takes; a flag no output's format takes, and a
    /// misspelt one, are usage errors.
    func testBadFlagsAreUsageErrors() throws {
        let s = Scratch()
        let path = try input(s)
        let cases: [([String], String)] = [
            (["--effort", "7", "-o", s.path("x.webp")], "--effort must be from 0 to 6 for webp, got 7"),
            (["--compression", "zip", "-o", s.path("x.tif")], "--compression must be none, lzw, deflate or jpeg for tiff, got zip"),
            (["--quality", "0", "-o", s.path("x.jpg")], "--quality must be from 1 to 100 for jpeg, got 0"),
            (["--lossless", "-o", s.path("x.jpg")], "--lossless applies to webp, jxl only"),
            (["--qualty", "80", "-o", s.path("x.jpg")], "did you mean \"--quality\""),
            (["--quality", "80", "--distance", "2", "-o", s.path("x.jxl")], "quality cannot be given with distance"),
            (["--lossless-jpeg", "--metadata", "strip", "-o", s.path("x.jxl")], "metadata cannot be given with lossless_jpeg: true"),
        ]
        for (flags, message) in cases {
            let result = try darkroom(["process", "--chain", "invert", path] + flags)
            XCTAssertEqual(result.status, 64, "\(flags): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(flags): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: flags.last!), "\(flags) wrote nothing")
        }
    }

    /// `process --help` lists each option of the table with its flag.
    func testHelpListsEveryOption() throws {
        let help = try darkroom(["process", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        for option in OutputOption.all {
            let spelling = option.forms[0].defaultValue == .boolean(true) ? "--no-" + option.flag.dropFirst(2) : option.flag
            XCTAssertTrue(help.stdout.contains(spelling), "\(spelling) in \(help.stdout)")
        }
    }

    /// In a terminal of 80 columns (and when piped), each output option's text stays in its own
    /// column: ArgumentParser wraps again any line of the discussion that fills all 80 columns,
    /// which left words such as "XL:" alone at the left edge.
    func testHelpKeepsEachOptionsTextInItsColumn() throws {
        let help = try darkroom(["process", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.hasPrefix("Output options") }),
              let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }) else {
            return XCTFail("no output options, or no usage, in \(help.stdout)")
        }
        for line in lines[(first + 1)..<usage] where !line.isEmpty {
            XCTAssertTrue(line.hasPrefix("  --") || line.hasPrefix(String(repeating: " ", count: 26)), "a line out of its column: \(line)")
        }
        for line in lines where !line.hasPrefix("USAGE:") {
            XCTAssertLessThanOrEqual(line.count, 80, "wider than the terminal: \(line)")
        }
    }
}
