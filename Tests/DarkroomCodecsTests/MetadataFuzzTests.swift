import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// Mutated metadata never fails an image or takes the process down: EXIF blocks with bytes
/// flipped, cut or overwritten go through libexif's rewrite (kept, or left out with a warning),
/// and files with mutated metadata segments still yield blocks or none.
final class MetadataFuzzTests: XCTestCase {
    /// A JPEG tagged by exiftool with EXIF (thumbnail, GPS), XMP and IPTC.
    private func tagged() throws -> [UInt8] {
        let folder = TemporaryFolder()
        let picture = Image(width: 24, height: 16) { x, y in Pixel(Float(x) / 24, Float(y) / 16, 0.5, 1) }
        let path = try ReferenceTool.file(try ImageCodec.encode(picture, options: .init(format: .jpeg)), named: "in.jpg", in: folder)
        let thumb = try ReferenceTool.file(try ImageCodec.encode(picture, options: .init(format: .jpeg)), named: "t.jpg", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.exiftool, [
            "-q", "-overwrite_original", "-Make=Fuzz", "-Copyright=(c) nobody", "-DateTimeOriginal=2020:01:02 03:04:05",
            "-GPSLatitude=1", "-GPSLatitudeRef=N", "-XMP-dc:Creator=nobody", "-IPTC:By-line=nobody",
            "-ThumbnailImage<=\(thumb)", path,
        ])
        return try folder.bytes("in.jpg")
    }

    func testMutatedEXIFIsKeptOrLeftOutWithAWarning() throws {
        let exif = try XCTUnwrap(ImageMetadata.read(from: try tagged()).exif)
        var rng = SeededGenerator(seed: 0xE1F)
        var kept = 0, leftOut = 0
        let policies = [MetadataPolicy.keep, MetadataPolicy(.keep, gps: false), MetadataPolicy(.copyright)]
        for variant in 0..<400 {
            let mutated = ImageMetadata(exif: MutationFuzzTests.mutate(exif, using: &rng))
            let policy = policies[variant % policies.count]
            let (out, warnings) = mutated.prepared(for: policy, size: Size(width: 24, height: 16), format: .jpeg,
                                                   orientationApplied: variant % 2 == 0)
            if out.exif == nil {
                leftOut += 1
                // `copyright` of a block that names no owner carries nothing, rightly unreported.
                if policy.content != .copyright {
                    XCTAssertEqual(warnings.count, 1, "variant \(variant): a block left out is always reported")
                }
            } else {
                kept += 1
                // What is kept must load again cleanly: the rewrite produced valid EXIF.
                let (again, warningsAgain) = out.prepared(for: .keep, size: Size(width: 24, height: 16), format: .jpeg,
                                                          orientationApplied: false)
                XCTAssertNotNil(again.exif, "variant \(variant): \(warningsAgain)")
            }
            // Whatever is carried, the file is written and decodes.
            var options = EncodeOptions(format: [.png, .jpeg, .tiff][variant % 3])
            options.metadata = mutated
            options.metadataPolicy = policy
            let bytes = try ImageCodec.encode(Image(width: 4, height: 4) { _, _ in Pixel(0.5, 0.5, 0.5, 1) }, options: options)
            XCTAssertEqual(try ImageCodec.decode(bytes).image.size, Size(width: 4, height: 4), "variant \(variant)")
        }
        XCTAssertGreaterThan(kept, 0)
        XCTAssertGreaterThan(leftOut, 0)
    }

    func testMutatedMetadataSegmentsNeverStopTheReader() throws {
        let jpeg = try tagged()
        let png = try ImageCodec.encode(Image(width: 8, height: 8) { _, _ in Pixel(0.2, 0.4, 0.6, 1) },
                                        options: { var o = EncodeOptions(format: .png); o.metadata = ImageMetadata.read(from: jpeg); return o }())
        XCTAssertNotNil(ImageMetadata.read(from: png).iptc, "the PNG carries all three blocks")
        // A TIFF keeps EXIF in IFDs of its own (behind the header as darkroom writes it, IFD0 at
        // the end): the whole small file is mutated.
        let tiff = try ImageCodec.encode(Image(width: 8, height: 8) { _, _ in Pixel(0.2, 0.4, 0.6, 1) },
                                         options: { var o = EncodeOptions(format: .tiff); o.metadata = ImageMetadata.read(from: jpeg); return o }())
        XCTAssertNotNil(ImageMetadata.read(from: tiff).exif, "the TIFF carries EXIF")
        var rng = SeededGenerator(seed: 0x5E6)
        for (name, original) in [("jpeg", jpeg), ("png", png), ("tiff", tiff)] {
            // Only the metadata lies before the image data: mutate there.
            let head = Array(original.prefix(min(original.count, name == "tiff" ? original.count : 2048)))
            for variant in 0..<300 {
                var bytes = MutationFuzzTests.mutate(head, using: &rng) + original.dropFirst(head.count)
                if name == "png" { MutationFuzzTests.fixChunkCRCs(&bytes) }
                let found = ImageMetadata.read(from: bytes)
                let (out, _) = found.prepared(for: .keep, size: Size(width: 8, height: 8), format: .tiff, orientationApplied: true)
                if variant % 10 == 0 {  // what was found is written into a TIFF again, and reads back
                    var options = EncodeOptions(format: .tiff)
                    options.metadata = out
                    let again = try ImageCodec.encode(Image(width: 8, height: 8) { _, _ in Pixel(0.5, 0.5, 0.5, 1) }, options: options)
                    XCTAssertEqual(try ImageCodec.decode(again).image.size, Size(width: 8, height: 8), "\(name) variant \(variant)")
                }
                XCTAssertLessThanOrEqual(found.exif?.count ?? 0, bytes.count, "\(name) variant \(variant)")
            }
        }
    }
}
