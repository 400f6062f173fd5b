import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// The contact sheet's thumbnail of a camera RAW is its embedded JPEG preview (here a red
/// picture, where the raw data holds gradients), as photo browsers show it.
final class RawThumbnailTests: XCTestCase {
    func testARawThumbnailComesFromItsEmbeddedPreview() throws {
        let folder = TemporaryFolder()
        let red = try ImageCodec.encode(Image(width: 64, height: 48, fill: Pixel(0.9, 0.05, 0.05, 1)),
                                        options: EncodeOptions(format: .jpeg, quality: 95))
        let preview = folder.file("preview.jpg")
        try Data(red).write(to: URL(fileURLWithPath: preview))
        try DNGFile.make(["--synthetic", "256x192", folder.file("photo.dng"), "--preview", preview])
        let thumbnail = try Thumbnailer(box: 32, format: .jpeg).thumbnail(of: folder.file("photo.dng"))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [32, 24])
        let image = try ImageCodec.decode(thumbnail.bytes).image
        let centre = image[16, 12]
        XCTAssertGreaterThan(centre[0], 0.8, "the preview's red: \(centre)")
        XCTAssertLessThan(centre[1], 0.15, "\(centre)")
    }
}
