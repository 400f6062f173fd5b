import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// The daemon's thumbnails (docs/contact-sheet.md): made from the rows each job decodes and
/// encodes, written with the report and recorded in it; `report --html` shows them while the
/// file is still the one they were made from, and decodes the file otherwise.
final class ContactSheetDaemonThumbnailTests: XCTestCase {
    func testTheDaemonsThumbnailsMatchTheFilesAndTheSheetUsesThemOnlyWhileCurrent() throws {
        let s = Scratch()
        s.writeConfig("""
            watches:
              - name: photos
                path: \(s.path("inbox"))
                settle_ms: 50
                outputs:
                  - path: \(s.path("out/{stem}.jpg"))
                    chain:
                      - resize: { width: 200 }
                      - sepia: { intensity: random }
                  - path: \(s.path("out/{stem}-small.png"))
                    chain:
                      - resize: { width: 60 }
            """)
        let daemon = try start(s)
        let inputs = ["a.jpg": try smooth(width: 640, height: 480, format: .jpeg), "b.png": try smooth(width: 300, height: 400, format: .png),
                      "notes.jpg": Array("a shopping list, not a picture\n".utf8)]
        for (name, bytes) in inputs { s.writeAndRename("inbox/" + name, bytes) }
        XCTAssertTrue(eventually { s.files(in: "reports").count == 3 && s.files(in: "inbox").isEmpty },
                      "reports: \(s.files(in: "reports")); log:\n\(tail(daemon))")
        stop(daemon)

        // Each report names its pictures, in thumbnails/<watch>/, and the file each shows.
        for name in ["a.jpg", "b.png"] {
            let report = try json(s.path("reports/\(name).json"))
            let input = try XCTUnwrap((report["input"] as? [String: Any])?["thumbnail"] as? [String: Any], "\(report)")
            XCTAssertEqual(input["file"] as? String, s.path("thumbnails/photos/\(name).input.webp"))
            XCTAssertEqual(input["box"] as? Int, 160)
            let done = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: s.path("done/\(name)")))
            XCTAssertEqual((input["file_bytes"] as? NSNumber)?.intValue, (done[.size] as? NSNumber)?.intValue)
            XCTAssertEqual((input["file_inode"] as? NSNumber)?.uint64Value, (done[.systemFileNumber] as? NSNumber)?.uint64Value,
                           "the input moved into done is the file the picture shows")
            let outputs = try XCTUnwrap(report["outputs"] as? [[String: Any]])
            XCTAssertEqual(outputs.compactMap { ($0["thumbnail"] as? [String: Any])?["file"] as? String },
                           [1, 2].map { s.path("thumbnails/photos/\(name).output-\($0).webp") })
        }
        let failed = try json(s.path("reports/notes.jpg.json"))
        XCTAssertTrue((failed["input"] as? [String: Any])?["thumbnail"] is NSNull, "a file that could not be decoded has no picture")
        XCTAssertEqual((failed["outputs"] as? [Any])?.count, 0)
        XCTAssertEqual(s.files(in: "thumbnails"), ["photos/a.jpg.input.webp", "photos/a.jpg.output-1.webp", "photos/a.jpg.output-2.webp",
                                                   "photos/b.png.input.webp", "photos/b.png.output-1.webp", "photos/b.png.output-2.webp"])
        XCTAssertEqual(s.files(in: "reports"), ["a.jpg.json", "b.png.json", "notes.jpg.json"], "the reports folder holds reports only")

        // The sheet takes the daemon's six pictures; the failure still shows, with its error.
        let daemons = try sheet(s, "daemons.html")
        XCTAssertTrue(daemons.stdout.contains("6 thumbnails (6 the daemon's) and 1 placeholders"), daemons.stdout)
        XCTAssertTrue(daemons.blocks.values.contains { $0.error?.contains("notes.jpg: not_an_image") == true }, "\(daemons.blocks)")

        // Without them (moved away) the sheet decodes the files: the same pictures, near enough
        // (a box average of the decoded rows against a resize of a shrunk decode, both WebP).
        try FileManager.default.moveItem(atPath: s.path("thumbnails"), toPath: s.path("elsewhere"))
        let decoded = try sheet(s, "decoded.html")
        XCTAssertTrue(decoded.stdout.contains(", 6 thumbnails and 1 placeholders"), decoded.stdout)
        XCTAssertEqual(daemons.blocks.count, 7)
        for (id, mine) in daemons.blocks where mine.error == nil {
            let theirs = try XCTUnwrap(decoded.blocks[id])
            XCTAssertEqual(mine.size, theirs.size, "block \(id)")
            let psnr = try PSNR(mine.picture, theirs.picture)
            XCTAssertGreaterThan(psnr, 30, "block \(id): the daemon's picture is not the file's (PSNR \(psnr) dB)")
        }
        try FileManager.default.moveItem(atPath: s.path("elsewhere"), toPath: s.path("thumbnails"))

        // a.jpg's bytes replaced in place by others of the same length, its modification time
        // put back: the stamp still matches, so the sheet shows the daemon's picture and never
        // reads the file (decoding it would fail). b.png rewritten: its picture is stale, so the
        // sheet decodes the new content and says it changed.
        let a = s.path("done/a.jpg")
        var before = stat()
        XCTAssertEqual(stat(a, &before), 0)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: a))
        handle.write(Data(repeating: 0x55, count: Int(before.st_size)))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, a, &times, 0), 0)
        s.writeInPlace("done/b.png", try smooth(width: 90, height: 50, format: .png))
        let later = try sheet(s, "later.html")
        XCTAssertTrue(later.stdout.contains("6 thumbnails (5 the daemon's) and 1 placeholders"), later.stdout)
        let aInput = try XCTUnwrap(later.blocks[daemons.inputBlock["a.jpg"]!])
        XCTAssertNil(aInput.error, "the daemon's picture, not a decode of the replaced bytes")
        XCTAssertEqual(aInput.picture, daemons.blocks[daemons.inputBlock["a.jpg"]!]?.picture)
        let bInput = try XCTUnwrap(later.blocks[daemons.inputBlock["b.png"]!])
        XCTAssertEqual(bInput.size, "90x50", "the new content's picture")
        XCTAssertTrue(bInput.note?.contains("its content changed since") == true, "\(bInput)")
    }

    struct Block: CustomStringConvertible {
        var size: String?
        var picture: [UInt8] = []
        var error: String?
        var note: String?
        var description: String { "\(size ?? "-") \(picture.count) bytes \(error ?? "") \(note ?? "")" }
    }

    struct Sheet {
        var stdout: String
        var blocks: [Int: Block]
        /// The block of each input's picture, by the input's name.
        var inputBlock: [String: Int]
    }

    /// `darkroom report --html` of the scratch tree's reports, with no cache, read back.
    func sheet(_ s: Scratch, _ name: String) throws -> Sheet {
        let run = try darkroom(["report", "--html", s.path(name), "--no-thumbnail-cache", "--config", s.path("config.yaml")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: s.path(name), encoding: .utf8)
        var blocks = [Int: Block]()
        let pattern = try NSRegularExpression(pattern: #"<script type="text/plain" id="t(\d+)"([^>]*)>([A-Za-z0-9+/=]*)</script>"#)
        for m in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let id = Int(html[Range(m.range(at: 1), in: html)!])!
            let attributes = String(html[Range(m.range(at: 2), in: html)!])
            func attribute(_ key: String) -> String? {
                guard let r = attributes.range(of: " \(key)=\"") else { return nil }
                return String(attributes[r.upperBound...].prefix { $0 != "\"" })
            }
            let base64 = String(html[Range(m.range(at: 3), in: html)!])
            blocks[id] = Block(size: attribute("data-size"), picture: Array(Data(base64Encoded: base64) ?? Data()),
                               error: attribute("data-error"), note: attribute("data-note"))
        }
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(String(html.split(separator: "<script type=\"application/json\" id=\"entries\">")[1]
            .prefix { $0 != "<" }).utf8)) as? [[String: Any]])
        let inputBlock = Dictionary(uniqueKeysWithValues: entries.map {
            (($0["input"] as! String).components(separatedBy: "/").last!, $0["thumbnail"] as! Int)
        })
        return Sheet(stdout: run.stdout, blocks: blocks, inputBlock: inputBlock)
    }

    func json(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// A picture with broad gradients and soft shapes, as photos are: thumbnails made two ways
    /// agree on it (a fine pattern would alias differently in each).
    func smooth(width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
        let image = Image(width: width, height: height) { x, y in
            let u = Float(x) / Float(width), v = Float(y) / Float(height)
            let disc: Float = (u - 0.3) * (u - 0.3) + (v - 0.6) * (v - 0.6) < 0.04 ? 0.5 : 0
            return Pixel(0.2 + 0.6 * u, 0.3 + 0.5 * v * v, min(1, 0.8 - 0.5 * u + disc), 1)
        }
        return try ImageCodec.encode(image, options: EncodeOptions(format: format))
    }

    /// The peak signal-to-noise ratio of two pictures of one size, in dB (8-bit RGB).
    func PSNR(_ a: [UInt8], _ b: [UInt8]) throws -> Double {
        let (x, y) = (try ImageCodec.decode(a).image, try ImageCodec.decode(b).image)
        XCTAssertEqual(x.size, y.size)
        var sum = 0.0
        for (p, q) in zip(x.pixels, y.pixels) {
            for c in 0..<3 { let d = Double(p[c] - q[c]) * 255; sum += d * d }
        }
        let mse = sum / Double(3 * x.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
