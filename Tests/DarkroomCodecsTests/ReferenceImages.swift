import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// `vips`, the independent reference of the orientation and colour tests, run on files.
///
/// CI installs it (scripts/install-deps.sh); there a missing `vips` fails the test, elsewhere it
/// skips it.
enum Vips {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func executable() throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/vips" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        if let path { return path }
        let message = "vips is not installed: install libvips-tools (scripts/install-deps.sh)"
        if let ci = ProcessInfo.processInfo.environment["CI"], !ci.isEmpty { throw Failure(description: message) }
        throw XCTSkip(message)
    }

    /// Writes `input` as `name` in a fresh folder, runs `vips` with `arguments` (`$IN`, `$OUT`
    /// stand for the input and `output.<outputExtension>`), and returns the output file's bytes.
    static func run(_ input: [UInt8], name: String, _ arguments: [String], outputExtension: String = "png") throws -> [UInt8] {
        let vips = try executable()
        let folder = TemporaryFolder(prefix: "darkroom-vips")
        let inPath = folder.file(name), outPath = folder.file("output.\(outputExtension)")
        try Data(input).write(to: URL(fileURLWithPath: inPath))
        try ToolProcess.run(vips, arguments.map { $0 == "$IN" ? inPath : $0 == "$OUT" ? outPath : $0 })
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: outPath)))
    }
}

/// Metadata blocks spliced into encoded files, as cameras and editors write them.
enum Splice {
    /// An EXIF TIFF stream (big-endian) whose IFD0 holds only Orientation = `value`.
    static func exifOrientation(_ value: Int) -> [UInt8] {
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(value), 0, 0, 0, 0, 0, 0]
    }

    /// `jpeg` with an APP1 Exif segment holding `tiff` right after SOI.
    static func jpeg(_ jpeg: [UInt8], exif tiff: [UInt8]) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    /// `png` with an eXIf chunk holding `tiff` right after IHDR.
    static func png(_ png: [UInt8], exif tiff: [UInt8]) -> [UInt8] {
        Self.png(png, chunk: chunk("eXIf", tiff))
    }

    /// `png` with `chunk` right after IHDR.
    static func png(_ png: [UInt8], chunk: [UInt8]) -> [UInt8] {
        let afterIHDR = 8 + 4 + 4 + 13 + 4
        return Array(png[0..<afterIHDR]) + chunk + png[afterIHDR...]
    }

    /// `data` as a zlib stream of stored (uncompressed) blocks, which every inflater reads.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count), n = end - start
            out += [end == data.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return out + bigEndian(b << 16 | a)
    }

    static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    /// PNG's CRC-32 (ISO 3309), bit by bit: a few chunks per test.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
