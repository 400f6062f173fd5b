import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// The `process`, `filters` and `check` commands and `run` without a config, driven through the
/// real binary the way a script or an operator uses them: arguments in, exit status, output
/// files and text out.
final class CommandLineTests: XCTestCase {
    func testProcessWritesTheFilteredImageAndAReport() throws {
        let s = Scratch()
        s.writeInPlace("a.png", try picture(width: 80, height: 40, format: .png))
        let result = try darkroom(["process", "--chain", "resize width=40 | sepia intensity=0.5",
                                   s.path("a.png"), "-o", s.path("out.jpg"), "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("a.png → "), result.stdout)
        let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("out.jpg")))
        XCTAssertEqual([info.width, info.height], [40, 20])
        XCTAssertEqual(info.format, .jpeg)
        let report = try XCTUnwrap(s.report("reports/a.png.json"))
        XCTAssertEqual(report["status"] as? String, "ok")
        let chain = try XCTUnwrap((report["outputs"] as? [[String: Any]])?.first?["chain"] as? [[String: Any]])
        XCTAssertEqual(chain.map { $0["filter"] as? String }, ["resize", "sepia"])
    }

    func testProcessIntoAFolderNamesOutputsAfterInputsAndFailsOnABadFile() throws {
        let s = Scratch()
        s.writeInPlace("good.jpg", try picture(width: 30, height: 20, format: .jpeg))
        s.writeInPlace("bad.jpg", Array("not a picture".utf8))
        let result = try darkroom(["process", "--chain", "invert", s.path("good.jpg"), s.path("bad.jpg"),
                                   "-o", s.path("out")])
        XCTAssertEqual(result.status, 1, "a failed file makes the exit status 1")
        XCTAssertTrue(result.stderr.contains("bad.jpg failed: not_an_image"), "errors go to stderr: \(result.stderr)")
        XCTAssertFalse(result.stdout.contains("failed"), "stdout holds the results only: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("good.jpg"), result.stdout)
        XCTAssertEqual(s.files(in: "out"), ["good.jpg"])
    }

    /// `--max-seconds` is the daemon's `limits.max_seconds` for `process`: past it the file fails
    /// with `timeout`, a message naming the option, and no output; a limit out of range is refused.
    func testProcessMaxSecondsAbandonsAFileWithTimeout() throws {
        let s = Scratch()
        s.writeInPlace("big.png", try picture(width: 1500, height: 1500, format: .png))
        let result = try darkroom(["process", "--chain", "gaussian_blur radius=40 | median radius=5", "--max-seconds", "0.001",
                                   s.path("big.png"), "-o", s.path("out.png")])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("big.png failed: timeout"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--max-seconds"), "the message names the option: \(result.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: s.path("out.png")))
        let refused = try darkroom(["process", "--chain", "invert", "--max-seconds", "0", s.path("big.png"), "-o", s.path("o.png")])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--max-seconds must be from 0.001 to 86400"), refused.stderr)
    }

    /// A graphic that cannot be drawn fails the file with `draw_failed` and the reason, and
    /// leaves no output: it is never drawn as a transparent layer.
    func testAGraphicThatCannotBeDrawnFailsTheFileWithItsReason() throws {
        let s = Scratch()
        s.writeInPlace("a.png", try picture(width: 30, height: 20, format: .png))
        s.writeInPlace("logo.svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="4" height="2"/></svg>"#.utf8))
        let result = try darkroom(["process", "--chain", "overlay_image image=\(s.path("logo.svg")) width=30000 height=30000",
                                   s.path("a.png"), "-o", s.path("out.png"), "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("a.png failed: draw_failed: overlay_image: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("would be drawn at 30000×30000"), result.stderr)
        XCTAssertNil(s.read("out.png"))
        let report = try XCTUnwrap(s.report("reports/a.png.json"))
        XCTAssertEqual((report["error"] as? [String: Any])?["code"] as? String, "draw_failed")
    }

    func testProcessKeepsOrStripsMetadata() throws {
        let s = Scratch()
        s.writeInPlace("tagged.jpg", try picture(width: 30, height: 20, format: .jpeg))
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-Copyright=(c) Ada", s.path("tagged.jpg")])
        for (option, expected) in [([String](), "(c) Ada"), (["--metadata", "strip"], "")] {
            let result = try darkroom(["process", "--chain", "invert", s.path("tagged.jpg"), "-o", s.path("out.jpg")] + option)
            XCTAssertEqual(result.status, 0, result.stderr)
            let copyright = try ReferenceTool.output(ReferenceTool.exiftool, ["-s3", "-Copyright", s.path("out.jpg")])
            XCTAssertEqual(copyright.trimmingCharacters(in: .whitespacesAndNewlines), expected, "\(option)")
        }
        let wrong = try darkroom(["process", "--chain", "invert", s.path("tagged.jpg"), "-o", s.path("x.jpg"), "--metadata", "none"])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("keep"), wrong.stderr)
    }

    func testProcessExplainsABadChain() throws {
        let s = Scratch()
        s.writeInPlace("a.png", try picture(width: 8, height: 8, format: .png))
        let typo = try darkroom(["process", "--chain", "sepai", s.path("a.png"), "-o", s.path("o.png")])
        XCTAssertNotEqual(typo.status, 0)
        XCTAssertTrue(typo.stderr.contains("did you mean \"sepia\""), typo.stderr)
        let range = try darkroom(["process", "--chain", "resize width=wide", s.path("a.png"), "-o", s.path("o.png")])
        XCTAssertNotEqual(range.status, 0)
        XCTAssertTrue(range.stderr.contains("resize.width: expected an integer from 1 to 65535, got \"wide\""), range.stderr)
        XCTAssertFalse(s.exists("o.png"))
    }

    func testFiltersJSONListsEveryFilterWithItsRanges() throws {
        let result = try darkroom(["filters", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let names = Set(list.compactMap { $0["name"] as? String })
        XCTAssertTrue(names.isSuperset(of: ["color_controls", "sepia", "hue", "gamma", "invert", "gaussian_blur",
                                            "convolve", "resize", "crop", "transform", "drop_shadow"]), "\(names)")
        let resize = try XCTUnwrap(list.first { $0["name"] as? String == "resize" })
        let width = try XCTUnwrap((resize["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "width" })
        XCTAssertEqual(width["minimum"] as? Double, 1)
        XCTAssertEqual(width["maximum"] as? Double, 65535)
        let sepia = try XCTUnwrap(list.first { $0["name"] as? String == "sepia" })
        let intensity = try XCTUnwrap((sepia["parameters"] as? [[String: Any]])?.first)
        XCTAssertEqual(intensity["default"] as? Double, 1)
        XCTAssertEqual(intensity["slider_maximum"] as? Double, 1)
        XCTAssertEqual(sepia["counterpart"] as? String, "CISepiaTone", "users find the familiar definition")
    }

    func testFiltersByCategory() throws {
        let color = try darkroom(["filters", "--category", "color"])
        XCTAssertEqual(color.status, 0)
        XCTAssertTrue(color.unwrapped.contains("sepia — Sepia Tone (CISepiaTone)."), color.stdout)
        XCTAssertFalse(color.stdout.contains("resize"))
        let unknown = try darkroom(["filters", "--category", "colour"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("did you mean \"color\""), unknown.stderr)
    }

    func testCheckAcceptsAGoodConfigAndListsEveryErrorOfABadOne() throws {
        let s = Scratch()
        s.writeInPlace("good.yaml", Array("""
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain: [invert]
            """.utf8))
        let good = try darkroom(["check", s.path("good.yaml")])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdout.contains("OK"), good.stdout)

        s.writeInPlace("bad.yaml", Array("""
            workers: many
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - resize: { width: wide }
                      - sepai
            """.utf8))
        let bad = try darkroom(["check", s.path("bad.yaml")])
        XCTAssertEqual(bad.status, 1)
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix(s.path("bad.yaml") + ":1:10: ") && $0.contains("workers") }, bad.stderr)
        XCTAssertTrue(lines.contains { $0.contains(":7:30: ") && $0.contains("expected an integer from 1 to 65535, got \"wide\"") }, bad.stderr)
        XCTAssertTrue(lines.contains { $0.contains(":8:13: ") && $0.contains("did you mean \"sepia\"") }, bad.stderr)
    }

    func testFormatsAreListedAndCheckSaysWhatEachOutputWrites() throws {
        let formats = try darkroom(["filters", "--formats"])
        XCTAssertEqual(formats.status, 0, formats.stderr)
        for line in ["webp  in, out", "avif  in, out", "tiff  in, out", "heif  in ", "lossless (false)", "speed 0–9 (5)",
                     "compression none|lzw|deflate|jpeg", "bit_depth 8|10", "raw   in ", "white_balance camera|auto|daylight (camera)"] {
            XCTAssertTrue(formats.unwrapped.contains(line), "\(line) in \(formats.stdout)")
        }
        XCTAssertTrue(try darkroom(["filters"]).stdout.contains("webp  in, out"), "the plain listing ends with the formats")

        let s = Scratch()
        s.writeInPlace("formats.yaml", Array("""
            watches:
              - path: ./in
                outputs:
                  - { path: './out/{stem}.webp', lossless: true }
                  - { path: './out/{stem}.avif', quality: 50, speed: 7 }
                  - { path: './out/{stem}-deep.avif', bit_depth: 10 }
                  - { path: './out/{stem}.tif', compression: deflate, tiled: true }
                  - { path: './out/{stem}.jxl', quality: 75, effort: 5 }
                  - { path: './out/{stem}-archive.jxl', lossless_jpeg: true }
            """.utf8))
        let check = try darkroom(["check", s.path("formats.yaml")])
        XCTAssertEqual(check.status, 0, check.stderr)
        for line in ["takes *.jpg *.jpeg *.jpe *.png *.webp *.gif *.avif *.jxl *.heic *.heif *.hif *.tif *.tiff *.dng *.cr2 *.cr3 *.nef *.arw *.raf *.orf *.rw2 *.pef *.srw *.pdf *.svg *.svgz (each read by its content)",
                     "{stem}.webp: webp, lossless, effort 4",
                     "{stem}.jxl: jxl, distance 2.35, effort 5", "{stem}-archive.jxl: jxl, JPEG inputs transcoded losslessly (lossless_jpeg), effort 7",
                     "{stem}.avif: avif, quality 50, speed 7, 8-bit",
                     "{stem}-deep.avif: avif, quality 90, speed 5, 10-bit", "{stem}.tif: tiff, deflate compression, tiled"] {
            XCTAssertTrue(check.unwrapped.contains(line), "\(line) in \(check.stdout)")
        }
    }

    /// The listings a person reads in a terminal fit 80 columns, each entry's later lines indented
    /// under it (one long line per filter, option or format wrapped at the terminal's edge before).
    func testTheListingsFitAnEightyColumnTerminal() throws {
        for command in [["filters"], ["formats"], ["errors"]] {
            let listing = try darkroom(command)
            XCTAssertEqual(listing.status, 0, listing.stderr)
            for line in listing.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 80, "darkroom \(command[0]): \(line)")
            }
        }
        let filters = try darkroom(["filters"]).stdout.split(separator: "\n")
        let radius = try XCTUnwrap(filters.firstIndex { $0.hasPrefix("      radius         scalar, default 10, from 0 to 1000") })
        XCTAssertTrue(filters[radius + 1].hasPrefix(String(repeating: " ", count: 21) + "Pixels"), "a parameter's text continues in its column")
    }

    /// No command's help breaks an indented line (an example command, an option) back to the left
    /// edge, as ArgumentParser does with a line of its discussion that is 80 columns or wider
    /// (the retry command of `report --help` was cut between `xargs` and `-r`). Every command and
    /// subcommand `--help` lists is read.
    func testEveryHelpKeepsItsIndentedLinesTogether() throws {
        var commands: [[String]] = [[]], read = 0
        while read < commands.count {
            let command = commands[read]
            read += 1
            let help = try darkroom(command + ["--help"])
            XCTAssertEqual(help.status, 0, "\(command): \(help.stderr)")
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) where line.hasPrefix(" ") && !next.isEmpty {
                XCTAssertTrue(next.hasPrefix(" "), "darkroom \(command.joined(separator: " ")) --help breaks \"\(line)\" before \"\(next)\"")
            }
            // "  name   What it does.": the subcommands this one lists.
            if let start = lines.firstIndex(of: "SUBCOMMANDS:") {
                for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                    let name = String(line.split(separator: " ")[0])
                    if name != "help" { commands.append(command + [name]) }
                }
            }
        }
        XCTAssertGreaterThan(commands.count, 10, "every subcommand read: \(commands)")
    }

    /// `process` writes the new formats by the output's extension, reading any input by content.
    func testProcessWritesWebPAVIFAndTIFFByExtension() throws {
        let s = Scratch()
        let png = try ImageCodec.encode(Image(width: 30, height: 20, fill: Pixel(0.2, 0.5, 0.8, 1)), options: .init(format: .png))
        s.writeInPlace("in.png", png)
        for ext in ["webp", "avif", "tif"] {
            let result = try darkroom(["process", "--chain", "resize width=15", s.path("in.png"), "-o", s.path("out.\(ext)")])
            XCTAssertEqual(result.status, 0, result.stderr)
            let info = try ImageCodec.readInfo([UInt8](try Data(contentsOf: URL(fileURLWithPath: s.path("out.\(ext)")))))
            XCTAssertEqual(info.format.fileExtension, ext)
            XCTAssertEqual([info.width, info.height], [15, 10])
        }
    }

    /// `--bit-depth 10` writes a 10-bit AVIF; a depth the format cannot take is a usage error
    /// naming the ones it can.
    func testProcessWritesTenBitAVIF() throws {
        let s = Scratch()
        let gradient = Image(width: 64, height: 16) { x, _ in Pixel(0.4 + 0.1 * Float(x) / 63, 0.5, 0.3, 1) }
        s.writeInPlace("deep.png", try ImageCodec.encode(gradient, options: .init(format: .png, bitDepth: 16)))
        let result = try darkroom(["process", "--chain", "invert", "--bit-depth", "10", s.path("deep.png"),
                                   "-o", s.path("out.avif")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try ImageCodec.readInfo(try XCTUnwrap(s.read("out.avif"))).bitDepth, 10)
        let refused = try darkroom(["process", "--chain", "invert", "--bit-depth", "16", s.path("deep.png"), "-o", s.path("x.avif")])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--bit-depth must be 8 or 10 for avif, got 16"), refused.stderr)
    }

    func testRunWithoutAConfigWatchesInboxAndWritesOutbox() throws {
        let s = Scratch()
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        daemon.arguments = ["run"]
        daemon.currentDirectoryURL = URL(fileURLWithPath: s.root)
        daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }

        XCTAssertTrue(eventually { s.exists("inbox") }, "the built-in config creates ./inbox")
        s.writeAndRename("inbox/wide.png", try picture(width: 1600, height: 400, format: .png))
        XCTAssertTrue(eventually { s.exists("reports/wide.png.json") && s.exists("done/wide.png") })
        let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("outbox/wide.jpg")))
        XCTAssertEqual([info.width, info.height], [1200, 300])

        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        XCTAssertEqual(daemon.terminationStatus, 0)
    }
}

/// What a command printed and how it ended.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// `stdout` with each wrapped line joined to the one before it (a newline and the indent
    /// become one space), for phrases a listing may break across lines.
    var unwrapped: String { stdout.replacingOccurrences(of: #"\n +"#, with: " ", options: .regularExpression) }
}

/// Runs the darkroom binary to completion.
func darkroom(_ arguments: [String]) throws -> CommandResult {
    try runProgram(try DaemonProcess.binaryPath(), arguments)
}
