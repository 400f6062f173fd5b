@testable import DarkroomCore
@testable import DarkroomCodecs
import Foundation
import XCTest

/// The table of formats (``ImageFormat/facts``) agrees with the sniffer that reads files, and
/// the lists made from it say what a user reads in the messages.
final class FormatTableTests: XCTestCase {
    /// Every fixture is recognised as the format its extension names, by its content, and every
    /// format of the table has such a fixture: no format is declared that the C side cannot tell.
    func testEveryFormatHasASnifferThatRecognisesItsFixture() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path).sorted()
        var recognised = Set<ImageFormat>()
        for name in names {
            let ext = (name as NSString).pathExtension
            guard let named = ImageFormat.fromExtension(ext) else { continue }
            let head = Array(try Fixtures.bytes(name).prefix(ImageInput.headLength))
            XCTAssertEqual(ImageFormat.detect(head), named, "\(name) is sniffed as the format its extension names")
            recognised.insert(named)
        }
        XCTAssertEqual(Set(ImageFormat.allCases).subtracting(recognised), [], "formats of the table without a fixture recognised as them")
    }

    /// The C code of each format leads back to it, and no two formats share a name or an extension.
    func testEachFormatIsDeclaredOnce() {
        for format in ImageFormat.allCases {
            XCTAssertEqual(ImageFormat(cFormat: Int32(format.facts.sniffed.rawValue)), format)
            for ext in format.fileExtensions { XCTAssertEqual(ImageFormat.fromExtension(ext), format, ext) }
        }
        let extensions = ImageFormat.allCases.flatMap(\.fileExtensions)
        XCTAssertEqual(Set(extensions).count, extensions.count, "an extension names two formats")
        XCTAssertEqual(Set(ImageFormat.allCases.map(\.displayName)).count, ImageFormat.allCases.count)
        XCTAssertNil(ImageFormat(cFormat: 0), "0 is the sniffer's 'none'")
    }

    func testTheListsSayWhatAUserReads() {
        XCTAssertEqual(ImageFormat.readableList, "JPEG, PNG, WebP, GIF, AVIF, JPEG XL, HEIF, TIFF, camera RAW, PDF or SVG")
        XCTAssertEqual(ImageFormat.writableList, "jpeg, png, webp, gif, avif, jxl or tiff")
        XCTAssertEqual(ImageFormat.writableFormats, ImageFormat.allCases.filter(\.isWritable))
        XCTAssertEqual(ImageFormat.allCases.filter(\.canAnimate), [.webp, .gif])
        XCTAssertEqual(ImageFormat.allCases.filter(\.isVector), [.pdf, .svg])
        XCTAssertEqual(ImageFormat.raw.fileExtensions, ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"])
        XCTAssertEqual(ImageFormat.fromExtension("SVGZ"), .svg)
        XCTAssertNil(ImageFormat.writable(fileExtension: "heic"), "HEIF is read only")
        XCTAssertEqual(ImageFormat.writable(fileExtension: "jxl"), .jxl)
        let globs = ImageFormat.extensionGlobs
        for glob in ["*.jpg", "*.jxl", "*.heic", "*.dng", "*.pdf", "*.svg"] { XCTAssertTrue(globs.contains(glob), glob) }
        XCTAssertEqual(globs.count, ImageFormat.allCases.map(\.fileExtensions.count).reduce(0, +))
    }

    /// A format the table says is read only is refused by the encoder, by its name, with the ones it writes.
    func testAReadOnlyFormatIsNotWritten() {
        let image = Image(width: 4, height: 4, fill: Pixel(0.5, 0.5, 0.5, 1))
        for format in ImageFormat.allCases where !format.isWritable {
            XCTAssertThrowsError(try ImageCodec.encode(image, options: EncodeOptions(format: format))) { error in
                XCTAssertEqual((error as? CodecError)?.code, .unsupported)
                XCTAssertEqual((error as? CodecError)?.message,
                               "darkroom reads \(format.displayName) but does not write it; write jpeg, png, webp, gif, avif, jxl or tiff")
            }
        }
    }

    /// `make fuzz` (scripts/fuzz.sh, a shell script that cannot read the table) fuzzes every format.
    func testTheFuzzScriptFuzzesEveryFormat() throws {
        let script = try String(contentsOf: Fixtures.directory.appendingPathComponent("../../../scripts/fuzz.sh"), encoding: .utf8)
        let line = try XCTUnwrap(script.split(separator: "\n").first { $0.hasPrefix("FORMATS=${FUZZ_FORMATS:-") })
        let names = line.dropFirst("FORMATS=${FUZZ_FORMATS:-".count).prefix { $0 != "}" }.split(separator: " ").map(String.init)
        XCTAssertEqual(Set(names), Set(ImageFormat.allCases.map(\.rawValue)), String(line))
    }

    /// The C sniffer only says "none"; the message names every format of the table.
    func testANonImageIsRefusedWithTheTablesFormats() {
        for bytes in [Array("just some text, not a picture\n".utf8), Array("BM6\u{0}\u{0}\u{0}".utf8) + [UInt8](repeating: 0, count: 64)] {
            XCTAssertThrowsError(try ImageCodec.readInfo(bytes)) { error in
                let error = error as? CodecError
                XCTAssertEqual(error?.code, .notAnImage)
                XCTAssertEqual(error?.message, ImageFormat.unrecognisedMessage)
                for name in ["PNG", "JPEG XL", "camera RAW", "PDF", "SVG"] {
                    XCTAssertTrue(error?.message.contains(name) == true, "\(name) in \(error?.message ?? "")")
                }
            }
        }
        XCTAssertTrue(ErrorCode.notAnImage.meaning.contains(ImageFormat.readableList), ErrorCode.notAnImage.meaning)
    }
}
