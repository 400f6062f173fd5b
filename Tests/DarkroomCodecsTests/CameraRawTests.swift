@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomCodecs

/// Camera RAW through libraw, on DNGs made here from known pictures (scripts/make-dng.py, with
/// tifffile from PyPI: the picture linearised, given a colour cast, mosaiced into an RGGB Bayer
/// pattern of 14-bit samples, the camera's colour space being linear sRGB). The references are
/// the picture itself and libraw's own `dcraw_emu` (libraw-bin) developing the same file.
final class CameraRawTests: XCTestCase {
    private let folder = TemporaryFolder()
    private static let (width, height) = (192, 128)

    /// Smooth gradients and a white patch in the corner: demosaicing has edges to get right but
    /// no texture finer than the Bayer pattern, and libraw's automatic brightness (the brightest
    /// 1 % made white) has white to find, so it leaves the picture's levels alone.
    private static func picture(width: Int = width, height: Int = height) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let white = x < width / 6 && y < height / 6
                let fx = Double(x) / Double(width - 1), fy = Double(y) / Double(height - 1)
                let values = white ? [255.0, 255, 255]
                    : [40 + 180 * fx, 30 + 190 * fy, 200 - 120 * fx + 40 * sin(Double(y) / 9)]
                for c in 0..<3 { rgb[i + c] = UInt8(values[c].rounded()) }
            }
        }
        return rgb
    }

    private static func image(_ rgb: [UInt8], width: Int = width, height: Int = height) -> Image {
        Image(width: width, height: height, pixels: (0..<width * height).map {
            straight8(Int(rgb[3 * $0]), Int(rgb[3 * $0 + 1]), Int(rgb[3 * $0 + 2]))
        })
    }

    /// A DNG of `rgb` made by scripts/make-dng.py with `arguments` (its bytes and its path).
    private func dng(_ rgb: [UInt8], width: Int = width, height: Int = height, name: String = "photo.dng",
                     _ arguments: [String] = []) throws -> (bytes: [UInt8], path: String) {
        let ppm = folder.file(name + ".ppm")
        try Data(Array("P6\n\(width) \(height)\n255\n".utf8) + rgb).write(to: URL(fileURLWithPath: ppm))
        let path = folder.file(name)
        try DNGFile.make([ppm, path] + arguments)
        return (try folder.bytes(name), path)
    }

    /// The image the decoder delivers for `bytes` developed as `raw` says.
    private func develop(_ bytes: [UInt8], raw: RawDecoding = RawDecoding(), shrink: Int = 1,
                         limits: DecodeLimits = .init()) throws -> (image: Image, decoder: ImageDecoder) {
        let decoder = try ImageDecoder(bytes, options: DecodeOptions(limits: limits, jpegShrink: shrink, raw: raw))
        var pixels = [Pixel](repeating: .zero, count: decoder.size.area)
        try pixels.withUnsafeMutableBufferPointer {
            try decoder.readRows(count: decoder.size.height, into: $0.baseAddress!, stride: decoder.size.width)
        }
        return (Image(width: decoder.size.width, height: decoder.size.height, pixels: pixels), decoder)
    }

    /// `dcraw_emu` developing the file as darkroom does: AHD (-q 3), the camera's white balance
    /// (-w), sRGB with its tone curve (-g 2.4 12.92); `half` for its half-size decode (-h).
    private func dcrawEmu(_ path: String, half: Bool = false) throws -> Image {
        guard let tool = ToolProcess.locate("dcraw_emu") else {
            throw TestEnvironment.unavailable("dcraw_emu is not installed: install libraw-bin (scripts/install-deps.sh)")
        }
        let out = path + (half ? ".half.tif" : ".tif")
        try ToolProcess.run(tool, ["-q", "3", "-w", "-g", "2.4", "12.92", "-T"] + (half ? ["-h"] : []) + ["-Z", out, path])
        return try ImageCodec.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))).image
    }

    /// Each channel's mean over the image, 0…1.
    private func means(_ image: Image) -> [Double] {
        var sums = [0.0, 0, 0]
        for y in 0..<image.height { for x in 0..<image.width { for c in 0..<3 { sums[c] += Double(image[x, y][c]) } } }
        return sums.map { $0 / Double(image.size.area) }
    }

    func testADNGComesBackCloseToItsPictureAndAsDcrawEmuDevelopsIt() throws {
        let rgb = Self.picture()
        let file = try dng(rgb, ["--gains", "0.5,1,0.7"])
        let info = try ImageCodec.readInfo(file.bytes)
        XCTAssertEqual(info.format, .raw)
        XCTAssertEqual([info.width, info.height, info.bitDepth], [Self.width, Self.height, 14])
        let developed = try develop(file.bytes)
        XCTAssertTrue(developed.decoder.isEightBit)
        // Demosaicing loses a little at the gradients' and the patch's edges; the cast is gone.
        let original = Self.image(rgb)
        XCTAssertGreaterThan(psnr(developed.image, original), 38, "against the picture the DNG was made from")
        XCTAssertGreaterThan(psnr(developed.image, try dcrawEmu(file.path)), 50, "against dcraw_emu on the same file")
    }

    /// Read in place (libraw opens /proc/self/fd/N), as the daemon reads a RAW: the same pixels
    /// and metadata as from memory.
    func testARawReadInPlaceIsTheSameAsFromMemory() throws {
        let file = try dng(Self.picture())
        let fd = open(file.path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let head = Array(file.bytes.prefix(ImageInput.headLength))
        XCTAssertTrue(ImageInput.readsInPlace(head: head))
        let input = ImageInput(descriptor: fd, size: file.bytes.count, head: head)
        XCTAssertEqual(try ImageCodec.readHeader(input).metadata, try ImageCodec.readHeader(file.bytes).metadata)
        let decoder = try ImageDecoder(input)
        var pixels = [Pixel](repeating: .zero, count: decoder.size.area)
        try pixels.withUnsafeMutableBufferPointer {
            try decoder.readRows(count: decoder.size.height, into: $0.baseAddress!, stride: decoder.size.width)
        }
        let inPlace = Image(width: decoder.size.width, height: decoder.size.height, pixels: pixels)
        XCTAssertEqual(psnr(inPlace, try develop(file.bytes).image), .infinity)
    }

    func testSixteenBitDevelopmentAgreesWithEightBit() throws {
        let file = try dng(Self.picture())
        let eight = try develop(file.bytes), sixteen = try develop(file.bytes, raw: RawDecoding(sixteenBit: true))
        XCTAssertFalse(sixteen.decoder.isEightBit)
        XCTAssertGreaterThan(psnr(eight.image, sixteen.image), 45)
    }

    /// The picture under a light of gains (0.5, 1, 0.7): the camera's white balance takes the cast
    /// out; daylight keeps it (red and blue low); auto (grey world) evens the channels' means.
    func testWhiteBalancesDifferAsTheyShould() throws {
        let rgb = Self.picture()
        let file = try dng(rgb, ["--gains", "0.5,1,0.7"])
        let original = means(Self.image(rgb))
        let camera = means(try develop(file.bytes, raw: RawDecoding(whiteBalance: .camera)).image)
        let daylight = means(try develop(file.bytes, raw: RawDecoding(whiteBalance: .daylight)).image)
        let auto = means(try develop(file.bytes, raw: RawDecoding(whiteBalance: .auto)).image)
        for c in 0..<3 { XCTAssertEqual(camera[c], original[c], accuracy: 0.01, "camera: channel \(c)") }
        XCTAssertLessThan(daylight[0], camera[0] - 0.1, "daylight keeps the light's lack of red")
        XCTAssertLessThan(daylight[2], camera[2] - 0.05, "and of blue")
        XCTAssertEqual(daylight[1], camera[1], accuracy: 0.02, "green is the reference of both")
        let spread = { (m: [Double]) in m.max()! - m.min()! }
        XCTAssertLessThan(spread(auto), spread(daylight) / 2, "grey world evens the means: \(auto) vs \(daylight)")
        XCTAssertNotEqual(auto.map { ($0 * 100).rounded() }, camera.map { ($0 * 100).rounded() })
    }

    func testHalfSizeDecodeAgreesWithDcrawEmuHalfSize() throws {
        let file = try dng(Self.picture())
        let half = try develop(file.bytes, shrink: 2)
        XCTAssertEqual(half.image.size, Size(width: Self.width / 2, height: Self.height / 2))
        XCTAssertGreaterThan(psnr(half.image, try dcrawEmu(file.path, half: true)), 50)
    }

    /// A thumbnail (a quarter of the width) takes the half-size decode, and says so; an output of
    /// three quarters of the width develops the whole sensor.
    func testTheHalfSizePathIsTakenForAThumbnailOnly() throws {
        let file = try dng(Self.picture())
        let info = try ImageCodec.readInfo(file.bytes)
        for (width, shrink) in [(Self.width / 4, 2), (Self.width / 2, 2), (Self.width * 3 / 4, 1)] {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("resize width=\(width)").resolve(seed: 1))
            let plan = ChainRenderer.plan(chain, header: info)
            XCTAssertEqual(plan.shrink, shrink, "width \(width)")
            let out = try ChainRenderer.render(file.bytes, plan: plan, options: EncodeOptions(format: .png), limits: .init())
            XCTAssertEqual(out.shrinkOnLoad, shrink, "width \(width)")
            XCTAssertEqual(out.size.width, width)
        }
    }

    /// The estimate counts libraw's images, a quarter of the developed ones for a half-size decode.
    func testHeldBytesCountLibrawsImages() throws {
        let info = try ImageCodec.readInfo(try dng(Self.picture()).bytes)
        let area = Self.width * Self.height
        XCTAssertEqual(ImageDecoder.heldBytes(header: RawDecoding().source(info)), area * (2 + 8 + 3))
        XCTAssertEqual(ImageDecoder.heldBytes(header: RawDecoding().source(info), shrink: 2), area * 2 + area / 4 * (8 + 3))
    }

    /// raw_preview reads the embedded JPEG (here a different picture, at another size) through
    /// the JPEG reader; a DNG without one is developed, with a warning.
    func testRawPreviewReadsTheEmbeddedJPEG() throws {
        let preview = try ImageCodec.encode(Self.image(Self.picture(width: 48, height: 32), width: 48, height: 32),
                                            options: EncodeOptions(format: .jpeg, quality: 95))
        let previewPath = try ReferenceTool.file(preview, named: "preview.jpg", in: folder)
        let file = try dng(Self.picture(), ["--preview", previewPath])
        let info = try ImageCodec.readInfo(file.bytes)
        XCTAssertEqual(info.rawPreviewSize, Size(width: 48, height: 32))
        let read = try develop(file.bytes, raw: RawDecoding(preview: true))
        XCTAssertEqual(read.image.size, Size(width: 48, height: 32))
        XCTAssertEqual(psnr(read.image, try ImageCodec.decode(preview).image), .infinity, "the preview's own pixels")
        XCTAssertNil(read.decoder.warning)

        let bare = try dng(Self.picture(), name: "bare.dng")
        XCTAssertNil(try ImageCodec.readInfo(bare.bytes).rawPreviewSize)
        let developed = try develop(bare.bytes, raw: RawDecoding(preview: true))
        XCTAssertEqual(developed.image.size, Size(width: Self.width, height: Self.height))
        XCTAssertEqual(developed.decoder.warning, "camera RAW: no embedded JPEG preview; the raw data was developed")
    }

    /// Planned through the preview, a thumbnail takes the JPEG's DCT shrink.
    func testAPreviewPlanIsAJPEGPlan() throws {
        let preview = try ImageCodec.encode(Self.image(Self.picture()), options: EncodeOptions(format: .jpeg, quality: 90))
        let file = try dng(Self.picture(), ["--preview", try ReferenceTool.file(preview, named: "p.jpg", in: folder)])
        let chain = ChainCompiler.compile(try ChainSyntax.parse("resize width=24").resolve(seed: 1))
        let plan = ChainRenderer.plan(chain, header: try ImageCodec.readInfo(file.bytes), raw: RawDecoding(preview: true))
        XCTAssertEqual(plan.sourceFormat, .jpeg)
        XCTAssertEqual(plan.shrink, 4)
        let out = try ChainRenderer.render(file.bytes, plan: plan, options: EncodeOptions(format: .png), limits: .init())
        XCTAssertEqual(out.size, Size(width: 24, height: 16))
    }

    func testMakeModelAndOrientationTravelToAJPEG() throws {
        let file = try dng(Self.picture(), ["--make", "Nikon Test", "--model", "Z 9 raw", "--orientation", "6"])
        let (info, metadata) = try ImageCodec.readHeader(file.bytes)
        XCTAssertEqual(info.orientation, 6)
        var options = EncodeOptions(format: .jpeg)
        options.metadata = metadata
        let chain = ChainCompiler.compile(try ChainSyntax.parse("resize width=64").resolve(seed: 1))
        let out = try ChainRenderer.render(file.bytes, plan: ChainRenderer.plan(chain, header: info), options: options, limits: .init())
        XCTAssertEqual(out.size, Size(width: 64, height: 96), "turned upright")
        let path = try ReferenceTool.file(out.bytes, named: "out.jpg", in: folder)
        let tags = try ReferenceTool.output(ReferenceTool.exiftool, ["-s3", "-Make", "-Model", "-Orientation#", "-ModifyDate", path])
        XCTAssertEqual(tags.split(separator: "\n").map(String.init), ["Nikon Test", "Z 9 raw", "1", "2024:05:06 07:08:09"])
    }

    func testTruncatedAndDamagedFilesFailWithTheirCodes() throws {
        let file = try dng(Self.picture())
        for cut in [file.bytes.count / 2, 600] {
            XCTAssertThrowsError(try develop(Array(file.bytes.prefix(cut)))) { error in
                XCTAssertEqual((error as? CodecError)?.code, .truncated, "cut at \(cut): \(error)")
            }
        }
        // ImageWidth 0 in IFD0 (its first entry, little-endian SHORT or LONG at offset 18).
        var damaged = file.bytes
        XCTAssertEqual(damaged[10], 0x00)
        XCTAssertEqual(damaged[11], 0x01)
        damaged.replaceSubrange(18..<22, with: [0, 0, 0, 0])
        XCTAssertEqual(ImageFormat.detect(damaged), .raw)
        XCTAssertThrowsError(try ImageCodec.readInfo(damaged)) { error in
            XCTAssertEqual((error as? CodecError)?.code, .corrupt, "\(error)")
        }
    }

    /// Where IFD0's StripOffsets (tag 0x111, LONG) array is, in a little-endian DNG of make-dng.py.
    private static func stripOffsets(_ bytes: [UInt8]) -> (at: Int, count: Int)? {
        func u(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let ifd = u(4, 4)
        for i in 0..<u(ifd, 2) {
            let entry = ifd + 2 + 12 * i
            if u(entry, 2) == 0x111, u(entry + 2, 2) == 4 {
                let count = u(entry + 4, 4)
                return (count == 1 ? entry + 8 : u(entry + 8, 4), count)
            }
        }
        return nil
    }

    /// A DNG whose strips lie past the end of the file fails before libraw reads it (libraw
    /// seeks wherever the offset wraps to and develops what it finds there, silently), from
    /// memory and read in place alike: a strip starting beyond the end is corrupt, one running
    /// past it truncated.
    func testStripsPastTheEndOfTheFileAreRefused() throws {
        let file = try dng(Self.picture())
        let strips = try XCTUnwrap(Self.stripOffsets(file.bytes))
        XCTAssertEqual(strips.count, 2, "make-dng.py writes 64-row strips")
        var damaged = file.bytes
        damaged.replaceSubrange(strips.at..<strips.at + 4, with: [0x00, 0xFF, 0xFF, 0xFF])  // 0xFFFFFF00
        let cut = Array(file.bytes.prefix(file.bytes.count - 100))
        let cases: [(String, [UInt8], ErrorCode, String)] = [
            ("offset", damaged, .corrupt, "strip 1 of 2 starts at byte 4294967040, past the end of the \(damaged.count)-byte file"),
            ("cut", cut, .truncated, "strip 2 of 2"),
        ]
        for (name, bytes, code, message) in cases {
            XCTAssertEqual(ImageFormat.detect(bytes), .raw, name)
            XCTAssertThrowsError(try develop(bytes), name) { error in
                XCTAssertEqual((error as? CodecError)?.code, code, "\(name): \(error)")
                XCTAssertTrue("\(error)".contains(message), "\(name): \(error)")
            }
            XCTAssertThrowsError(try ImageCodec.readInfo(bytes), name) { error in
                XCTAssertEqual((error as? CodecError)?.code, code, "\(name), header: \(error)")
            }
            let path = folder.file(name + ".dng")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fd = open(path, O_RDONLY)
            XCTAssertGreaterThanOrEqual(fd, 0)
            defer { close(fd) }
            let input = ImageInput(descriptor: fd, size: bytes.count, head: Array(bytes.prefix(ImageInput.headLength)))
            XCTAssertThrowsError(try ImageDecoder(input), name) { error in
                XCTAssertEqual((error as? CodecError)?.code, code, "\(name), in place: \(error)")
            }
        }
        XCTAssertNoThrow(try develop(file.bytes), "the whole file develops")
    }

    func testThePixelLimitIsCheckedFromTheHeader() throws {
        let file = try dng(Self.picture())
        XCTAssertThrowsError(try develop(file.bytes, limits: DecodeLimits(maxPixels: Self.width * Self.height - 1))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
        }
    }

    /// The job's deadline stops the development between libraw's stages.
    func testAPassedDeadlineStopsTheDevelopment() throws {
        let file = try dng(Self.picture())
        XCTAssertThrowsError(try ImageDecoder(file.bytes, options: DecodeOptions(deadline: Deadline(nanoseconds: 1)))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .timeout, "\(error)")
        }
    }

    /// TIFFs stay TIFFs: darkroom's fixtures, a TIFF naming a camera maker (as a camera's own TIFF
    /// or darkroom's TIFF output of its JPEG does), and a TIFF made from the DNG's own picture.
    func testOrdinaryTIFFsAreStillTIFFs() throws {
        for name in ["rgba16_lzw.tif", "noise_tiled.tif"] {
            XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes(name)), .tiff, name)
        }
        let jpeg = try ImageCodec.encode(Self.image(Self.picture()), options: EncodeOptions(format: .jpeg))
        guard let python = ToolProcess.locate("python3") else { throw TestEnvironment.unavailable("python3") }
        let tif = folder.file("camera.tif")
        try ToolProcess.run(python, ["-c", """
            import numpy, tifffile
            tifffile.imwrite('\(tif)', numpy.zeros((32, 48, 3), numpy.uint8), photometric='rgb',
                             extratags=[(271, 's', 0, 'NIKON CORPORATION', True), (272, 's', 0, 'NIKON D850', True)])
            """])
        let camera = try folder.bytes("camera.tif")
        XCTAssertEqual(ImageFormat.detect(camera), .tiff)
        XCTAssertEqual(try ImageCodec.decode(camera).image.size, Size(width: 48, height: 32))
        var options = EncodeOptions(format: .tiff)
        options.metadata = try ImageCodec.readHeader(try dng(Self.picture()).bytes).metadata
        let written = try render(jpeg, "", options: options).bytes
        XCTAssertEqual(ImageFormat.detect(written), .tiff, "darkroom's TIFF with the DNG's Make in IFD0")
    }

    /// The signatures of the RAW formats made by no tool here, and a head cut short.
    func testRawSignaturesAreTold() {
        let tails = [UInt8](repeating: 0, count: 32)
        XCTAssertEqual(ImageFormat.detect(Array("FUJIFILMCCD-RAW 0201".utf8) + tails), .raw)
        XCTAssertEqual(ImageFormat.detect([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + tails), .raw)
        XCTAssertEqual(ImageFormat.detect(Array("IIRO".utf8) + [8, 0, 0, 0] + tails), .raw)
        XCTAssertEqual(ImageFormat.detect(Array("IIU".utf8) + [0, 8, 0, 0, 0] + tails), .raw)
        XCTAssertEqual(ImageFormat.detect(Array("II*".utf8) + [0, 16, 0, 0, 0] + Array("CR".utf8) + [2, 0] + tails), .raw)
        XCTAssertEqual(ImageFormat.detect([0, 0, 0, 0x18] + Array("ftypheic".utf8) + tails), .heif)
        XCTAssertEqual(ImageFormat.detect(Array("II*".utf8) + [0, 8, 0, 0, 0]), .tiff, "IFD0 beyond the bytes given")
        XCTAssertEqual(ImageFormat.fromExtension("NEF"), .raw)
        XCTAssertFalse(ImageFormat.raw.isWritable)
    }
}
