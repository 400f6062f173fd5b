import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The asset store hands the core an image as the chain's own input would be: upright, in sRGB,
/// compact; it refuses what it cannot use with the path and the reason.
final class AssetStoreTests: XCTestCase {
    private let store = AssetStore(limits: DecodeLimits(maxPixels: 10_000, maxFileBytes: 1 << 20), hash: { "\($0.count) bytes" })

    private func file(_ folder: TemporaryFolder, _ name: String, _ bytes: [UInt8]) -> String {
        let path = folder.file(name)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)), path)
        return path
    }

    func testAnImageIsTurnedUprightAsAnInputWouldBe() throws {
        let folder = TemporaryFolder()
        let picture = Image(width: 7, height: 4) { x, y in Pixel(Float(x) / 6, Float(y) / 3, 0.5, 1) }
        let input = Splice.png(try ImageCodec.encode(picture, options: EncodeOptions(format: .png)), exif: Splice.exifOrientation(6))
        let asset = try store.image(at: file(folder, "turned.png", input))
        XCTAssertEqual(asset.size, Size(width: 4, height: 7))
        let plan = ChainRenderer.plan(CompiledChain(stages: []), header: try ImageCodec.readInfo(input))
        let upright = try ImageCodec.decode(try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png),
                                                                     limits: DecodeLimits()).bytes).image
        for y in 0..<7 { for x in 0..<4 { for c in 0..<4 {
            XCTAssertEqual(asset.pixel(x, y)[c], upright[x, y][c], accuracy: 1e-6, "(\(x), \(y))")
        } } }
        XCTAssertEqual(asset.byteCount, 4 * 7 * 3, "opaque 8-bit: 3 bytes a pixel")
        XCTAssertEqual(asset.identity.sha256, "\(input.count) bytes")
    }

    func testAProfiledImageIsConvertedToSRGBAndKeptAt16Bits() throws {
        let folder = TemporaryFolder()
        let input = try Fixtures.bytes("prophoto16.png")
        let asset = try store.image(at: file(folder, "wide-gamut.png", input))
        let converted = try ImageCodec.decode(input, convertToSRGB: .perceptual).image
        XCTAssertEqual(asset.size, converted.size)
        XCTAssertEqual(asset.byteCount, converted.size.area * 8)
        for y in 0..<converted.height { for x in 0..<converted.width {
            for c in 0..<4 { XCTAssertEqual(asset.pixel(x, y)[c], converted[x, y][c], accuracy: 0.6 / 65535) }
        } }
    }

    func testWhatCannotBeUsedIsRefusedWithThePathAndTheReason() throws {
        let folder = TemporaryFolder()
        let big = try ImageCodec.encode(Image(width: 200, height: 60) { _, _ in Pixel(1, 1, 1, 1) }, options: EncodeOptions(format: .png))
        let cases = [(folder.file("none.png"), "no such file"),
                     (file(folder, "text.png", Array("hello".utf8)), "not an image (\(ImageFormat.readableList))"),
                     (file(folder, "big.png", big), "over the limit"),
                     (folder.path, "not a regular file")]
        for (path, reason) in cases {
            XCTAssertThrowsError(try store.image(at: path)) { error in
                let message = (error as? ParameterError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix(path + ": ") && message.contains(reason), message)
            }
        }
        XCTAssertEqual(store.byteCount, 0, "nothing refused is held")
    }

    func testADataFileIsReadOnceUntilItChanges() throws {
        let folder = TemporaryFolder()
        let path = file(folder, "lut.cube", Array("LUT_3D_SIZE 2\n".utf8))
        XCTAssertEqual(try store.data(at: path).bytes, Array("LUT_3D_SIZE 2\n".utf8))
        _ = file(folder, "lut.cube", Array("LUT_3D_SIZE 17\n".utf8))
        XCTAssertEqual(try store.data(at: path).bytes, Array("LUT_3D_SIZE 17\n".utf8), "a new size is read again")
    }
}
