import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// EXIF, XMP and IPTC carried from inputs to outputs, edited as `metadata:` and `gps:` say. The
/// inputs are tagged by exiftool and every output is read back by exiftool: darkroom's own reader
/// checks nothing here.
final class MetadataTests: XCTestCase {
    private static let owner = "Ada Lovelace", rights = "(c) 2026 Ada", taken = "2024:05:06 07:08:09"

    /// exiftool's arguments that tag a file as a camera and a photographer would, with a
    /// thumbnail and a GPS position in EXIF and in XMP, and orientation 6.
    private static let tagging = [
        "-Make=TestCam", "-Model=X1", "-Artist=\(owner)", "-Copyright=\(rights)", "-DateTimeOriginal=\(taken)",
        "-Orientation#=6", "-XMP-dc:Creator=\(owner)", "-XMP-dc:Rights=\(rights)", "-IPTC:By-line=\(owner)",
        "-IPTC:CopyrightNotice=\(rights)", "-IPTC:Keywords=harbour", "-GPSLatitude=51.5", "-GPSLatitudeRef=N",
        "-GPSLongitude=0.12", "-GPSLongitudeRef=W", "-XMP-exif:GPSLatitude=51.5 N", "-XMP-exif:GPSLongitude=0.12 W",
        "-ExifImageWidth=64", "-ExifImageHeight=48", "-ColorSpace#=65535", "-XMP-tiff:Orientation#=6",
        "-XMP-exif:ExifImageWidth=64", "-XMP-exif:ExifImageHeight=48", "-XMP-xmpRights:Marked=True",
    ]

    private let picture = Image(width: 64, height: 48) { x, y in Pixel(Float(x) / 64, Float(y) / 48, 0.4, 1) }

    /// A JPEG of `picture` tagged by exiftool, with a 16×12 JPEG thumbnail.
    private func taggedJPEG() throws -> [UInt8] {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(try ImageCodec.encode(picture, options: .init(format: .jpeg)), named: "in.jpg", in: folder)
        let thumb = try ReferenceTool.file(try ImageCodec.encode(Image(width: 16, height: 12) { _, _ in Pixel(1, 0, 0, 1) },
                                                                 options: .init(format: .jpeg)), named: "thumb.jpg", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original"] + Self.tagging
                                     + ["-ThumbnailImage<=\(thumb)", path])
        return try folder.bytes("in.jpg")
    }

    /// Every tag exiftool finds, as "group:name" (family 1 groups: IFD0, ExifIFD, GPS, IFD1,
    /// XMP-dc, IPTC, …) → value, numbers unformatted.
    private func tags(_ bytes: [UInt8], _ ext: String) throws -> [String: Any] {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(bytes, named: "out.\(ext)", in: folder)
        let json = try ReferenceTool.output(ReferenceTool.exiftool, ["-j", "-G1", "-n", "-a", path])
        let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return try XCTUnwrap(list?.first)
    }

    private func text(_ tags: [String: Any], _ key: String) -> String? { tags[key].map { "\($0)" } }

    private func metadataGroups(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in ["IFD0:", "ExifIFD:", "GPS:", "IFD1:", "XMP", "IPTC", "InteropIFD:"].contains { key.hasPrefix($0) } }
            .filter { !$0.hasPrefix("XMP-x:") && !Self.tiffStructure.contains($0) }.sorted()
    }

    /// A TIFF's own IFD0 tags, which describe its pixels rather than the picture.
    private static let tiffStructure: Set<String> = Set(["BitsPerSample", "Compression", "ImageHeight", "ImageWidth", "Orientation",
        "PhotometricInterpretation", "PlanarConfiguration", "RowsPerStrip", "SamplesPerPixel", "StripByteCounts",
        "StripOffsets", "ExtraSamples", "Predictor", "XResolution", "YResolution", "ResolutionUnit"].map { "IFD0:" + $0 })

    /// The formats darkroom writes (all hold EXIF), and which of them hold IPTC (WebP, AVIF and
    /// JPEG XL have no place for it).
    private static let writable = ImageFormat.allCases.filter { $0.isWritable && $0.holdsMetadata }
    private static func carriesIPTC(_ format: ImageFormat) -> Bool { ![.webp, .avif, .jxl].contains(format) }

    /// The warnings an output of the tagged input gets for the blocks its format cannot carry.
    private static func expectedWarnings(_ format: ImageFormat, iptc: Bool = true) -> [String] {
        !carriesIPTC(format) && iptc ? ["IPTC left out: \([ImageFormat.webp: "WebP", .avif: "AVIF", .jxl: "JPEG XL"][format]!) has no place for it (EXIF and XMP are kept)"] : []
    }

    /// With `upright` (auto_orient, the default) the orientation-6 input is turned upright.
    private func output(_ input: [UInt8], _ chain: String = "", format: ImageFormat, policy: MetadataPolicy = .keep,
                        upright: Bool = false) throws -> ChainRenderer.Output {
        var options = EncodeOptions(format: format)
        options.metadata = ImageMetadata.read(from: input)
        options.metadataPolicy = policy
        return try render(input, chain, options: options, autoOrient: upright)
    }

    func testKeepCarriesEXIFXMPAndIPTCIntoEveryFormatThatHoldsThem() throws {
        let input = try taggedJPEG()
        for format in Self.writable {
            let out = try output(input, "resize scale=0.5", format: format)
            XCTAssertEqual(out.metadataWarnings, Self.expectedWarnings(format))
            let t = try tags(out.bytes, format.fileExtension)
            let what = format.rawValue
            XCTAssertEqual(text(t, "XMP-dc:Creator"), Self.owner, what)
            XCTAssertEqual(text(t, "XMP-dc:Rights"), Self.rights, what)
            XCTAssertEqual(text(t, "XMP-exif:GPSLatitude"), "51.5", what)
            XCTAssertEqual(text(t, "XMP-exif:ExifImageWidth"), "32", what)
            XCTAssertEqual(text(t, "XMP-exif:ExifImageHeight"), "24", what)
            XCTAssertEqual(text(t, "XMP-tiff:Orientation"), "6", what)
            XCTAssertEqual(text(t, "IFD0:Orientation"), "6", what)
            if Self.carriesIPTC(format) {
                XCTAssertEqual(text(t, "IPTC:By-line"), Self.owner, what)
                XCTAssertEqual(text(t, "IPTC:CopyrightNotice"), Self.rights, what)
                XCTAssertEqual(text(t, "IPTC:Keywords"), "harbour", what)
            }
            XCTAssertEqual(text(t, "IFD0:Make"), "TestCam", what)
            XCTAssertEqual(text(t, "IFD0:Model"), "X1", what)
            XCTAssertEqual(text(t, "IFD0:Artist"), Self.owner, what)
            XCTAssertEqual(text(t, "IFD0:Copyright"), Self.rights, what)
            XCTAssertEqual(text(t, "ExifIFD:DateTimeOriginal"), Self.taken, what)
            XCTAssertEqual(text(t, "GPS:GPSLatitude"), "51.5", what)
            // Brought up to date: the output's size, no thumbnail of the unfiltered picture, and
            // the orientation kept since these pixels were not turned.
            XCTAssertEqual(text(t, "ExifIFD:ExifImageWidth"), "32", what)
            XCTAssertEqual(text(t, "ExifIFD:ExifImageHeight"), "24", what)
            XCTAssertEqual(text(t, "ExifIFD:ColorSpace"), "65535", what)
            XCTAssertNil(t["IFD1:ThumbnailImage"], what)
            XCTAssertNil(t["IFD1:ThumbnailLength"], what)
        }
    }

    /// A TIFF tagged by exiftool keeps its picture's tags in IFD0 and in EXIF and GPS IFDs, not
    /// in a block: they reach every output as a JPEG's EXIF does, and its Orientation 6 is turned
    /// upright as a JPEG's.
    func testATIFFsEXIFReachesEveryFormat() throws {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(try ImageCodec.encode(picture, options: .init(format: .tiff)), named: "in.tif", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original"] + Self.tagging + [path])
        let input = try folder.bytes("in.tif")
        XCTAssertEqual(text(try tags(input, "tif"), "ExifIFD:DateTimeOriginal"), Self.taken, "the input is tagged")
        // Read in place, as the daemon reads a TIFF (pread), the block is the one read from memory.
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let inPlace = try ImageCodec.readHeader(ImageInput(descriptor: descriptor, size: input.count, head: input)).metadata
        XCTAssertEqual(inPlace.exif, ImageMetadata.read(from: input).exif)
        XCTAssertNotNil(inPlace.exif)
        for format in Self.writable {
            let out = try output(input, "resize scale=0.5", format: format)
            XCTAssertEqual(out.metadataWarnings, Self.expectedWarnings(format))
            let t = try tags(out.bytes, format.fileExtension)
            let what = format.rawValue
            XCTAssertEqual(text(t, "IFD0:Make"), "TestCam", what)
            XCTAssertEqual(text(t, "IFD0:Model"), "X1", what)
            XCTAssertEqual(text(t, "IFD0:Artist"), Self.owner, what)
            XCTAssertEqual(text(t, "IFD0:Copyright"), Self.rights, what)
            XCTAssertEqual(text(t, "IFD0:Orientation"), "6", what)
            XCTAssertEqual(text(t, "ExifIFD:DateTimeOriginal"), Self.taken, what)
            XCTAssertEqual(text(t, "ExifIFD:ExifImageWidth"), "32", what)
            XCTAssertEqual(text(t, "ExifIFD:ColorSpace"), "65535", what)
            XCTAssertEqual(text(t, "GPS:GPSLatitude"), "51.5", what)
            XCTAssertEqual(text(t, "GPS:GPSLongitudeRef"), "W", what)
            XCTAssertEqual(text(t, "XMP-dc:Creator"), Self.owner, what)
            let upright = try output(input, format: format, upright: true)
            XCTAssertEqual(try ImageCodec.decode(upright.bytes).image.size, Size(width: 48, height: 64), what)
            XCTAssertEqual(text(try tags(upright.bytes, format.fileExtension), "IFD0:Orientation"), "1", what)
        }
    }

    /// The EXIF and GPS IFDs darkroom writes into a TIFF are well formed: exiftool's validation
    /// finds only what it says of every camera block moved into a TIFF (tags the TIFF profile
    /// does not list, GPSProcessingMethod missing; and libtiff 4.5 writing the IPTC tag as
    /// UNDEFINED), and libtiff's own tiffinfo reads them.
    func testTIFFOutputsEXIFIsWellFormed() throws {
        let out = try output(try taggedJPEG(), format: .tiff)
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(out.bytes, named: "out.tif", in: folder)
        let validation = try ReferenceTool.output(ReferenceTool.exiftool, ["-s3", "-validate", "-warning", "-a", path])
        let warnings = validation.split(separator: "\n").dropFirst()
        XCTAssertFalse(warnings.isEmpty, validation)
        for warning in warnings {
            XCTAssertTrue(warning.hasSuffix("is not allowed in TIFF") || warning.hasSuffix("GPSProcessingMethod")
                          || warning.hasSuffix("0x83bb IPTC-NAA"), validation)
        }
        let info = try FormatTools.run(FormatTools.tiffinfo, [path])
        XCTAssertTrue(info.contains("DateTimeOriginal: \(Self.taken)"), info)
        XCTAssertTrue(info.contains("--- GPS directory"), info)
        XCTAssertTrue(info.contains("Make: TestCam"), info)
        XCTAssertTrue(info.contains("Resolution: 1, 1 (unitless)"), "the input's, not the default 72 dpi: \(info)")
    }

    func testOrientationIsResetOnlyWhenThePixelsWereTurnedUpright() throws {
        let input = try taggedJPEG()
        for format in Self.writable {
            let upright = try tags(try output(input, format: format, upright: true).bytes, format.fileExtension)
            XCTAssertEqual(text(upright, "IFD0:Orientation"), "1", format.rawValue)
            XCTAssertEqual(text(upright, "XMP-tiff:Orientation"), "1", format.rawValue)
            let stored = try tags(try output(input, format: format, upright: false).bytes, format.fileExtension)
            XCTAssertEqual(text(stored, "IFD0:Orientation"), "6", format.rawValue)
            XCTAssertEqual(text(stored, "XMP-tiff:Orientation"), "6", format.rawValue)
        }
    }

    func testColorSpaceSaysSRGBOnceThePixelsWereConverted() throws {
        var options = EncodeOptions(format: .jpeg)
        let input = try taggedJPEG()
        options.metadata = ImageMetadata.read(from: input)
        options.convertedToSRGB = true
        XCTAssertEqual(text(try tags(try render(input, options: options).bytes, "jpg"), "ExifIFD:ColorSpace"), "1")
    }

    func testGPSCanBeRemovedAlone() throws {
        let input = try taggedJPEG()
        for format in Self.writable {
            let out = try output(input, format: format, policy: MetadataPolicy(.keep, gps: false))
            XCTAssertEqual(out.metadataWarnings, Self.expectedWarnings(format))
            let t = try tags(out.bytes, format.fileExtension)
            XCTAssertEqual(t.keys.filter { $0.contains("GPS") }.sorted(), [], format.rawValue)
            XCTAssertEqual(text(t, "XMP-dc:Creator"), Self.owner, format.rawValue)
            XCTAssertEqual(text(t, "IFD0:Copyright"), Self.rights, format.rawValue)
            XCTAssertEqual(text(t, "ExifIFD:DateTimeOriginal"), Self.taken, format.rawValue)
        }
    }

    func testStripLeavesNoMetadata() throws {
        let input = try taggedJPEG()
        XCTAssertFalse(metadataGroups(try tags(input, "jpg")).isEmpty, "the input is tagged")
        for format in Self.writable {
            let t = try tags(try output(input, format: format, policy: .strip).bytes, format.fileExtension)
            XCTAssertEqual(metadataGroups(t), [], format.rawValue)
        }
    }

    func testCopyrightKeepsOnlyWhoMadeAndOwnsThePicture() throws {
        let input = try taggedJPEG()
        for format in Self.writable {
            let t = try tags(try output(input, format: format, policy: MetadataPolicy(.copyright)).bytes, format.fileExtension)
            let exif = ["IFD0:Artist", "IFD0:Copyright"]
            let iptc = Self.carriesIPTC(format) ? ["IPTC:ApplicationRecordVersion", "IPTC:By-line", "IPTC:CopyrightNotice"] : []
            XCTAssertEqual(metadataGroups(t), exif + iptc + ["XMP-dc:Creator", "XMP-dc:Rights", "XMP-xmpRights:Marked"], format.rawValue)
            XCTAssertEqual(text(t, "IFD0:Copyright"), Self.rights)
            if Self.carriesIPTC(format) { XCTAssertEqual(text(t, "IPTC:By-line"), Self.owner) }
            XCTAssertEqual(text(t, "XMP-dc:Creator"), Self.owner)
            XCTAssertEqual(text(t, "XMP-dc:Rights"), Self.rights)
            XCTAssertEqual(text(t, "XMP-xmpRights:Marked"), "1")
        }
    }

    /// ImageMagick keeps a JPEG's metadata in PNG as eXIf and "Raw profile type" text chunks;
    /// darkroom reads those, so a PNG that went through ImageMagick keeps its metadata too.
    func testImageMagickPNGMetadataIsRead() throws {
        let folder = TemporaryFolder()
        let jpeg = try ReferenceTool.file(try taggedJPEG(), named: "in.jpg", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.convert, [jpeg, folder.file("in.png")])
        let input = try folder.bytes("in.png")
        let read = ImageMetadata.read(from: input)
        XCTAssertNotNil(read.exif)
        XCTAssertNotNil(read.xmp)
        XCTAssertNotNil(read.iptc)
        let t = try tags(try output(input, format: .jpeg).bytes, "jpg")
        XCTAssertEqual(text(t, "IFD0:Copyright"), Self.rights)
        XCTAssertEqual(text(t, "XMP-dc:Creator"), Self.owner)
        XCTAssertEqual(text(t, "IPTC:CopyrightNotice"), Self.rights)
    }

    /// An APP1 Exif segment whose TIFF header is fine but whose IFD points past the end: the
    /// output is written without EXIF, with a warning, never a failure.
    func testCorruptEXIFIsLeftOutWithAWarning() throws {
        let clean = try ImageCodec.encode(picture, options: .init(format: .jpeg))
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0x7F, 0xFF, 0xFF, 0x00] + [UInt8](repeating: 0xEE, count: 40)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let input = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + clean.dropFirst(2)
        XCTAssertNotNil(ImageMetadata.read(from: input).exif, "the reader hands the block on")
        for format in Self.writable {
            let out = try output(input, format: format)
            XCTAssertEqual(out.metadataWarnings.count, 1, format.rawValue)
            XCTAssertTrue(out.metadataWarnings.first?.hasPrefix("EXIF left out") == true, "\(out.metadataWarnings)")
            XCTAssertEqual(try ImageCodec.decode(out.bytes).image.size, picture.size)
            XCTAssertEqual(metadataGroups(try tags(out.bytes, format.fileExtension)), [], format.rawValue)
        }
    }

    /// A block with one entry pointing past its end: the readable entries are kept, and the
    /// warning says some were not.
    func testPartlyCorruptEXIFKeepsTheReadableEntries() throws {
        // Big-endian TIFF, IFD0 at 8 with two ASCII entries: Make, 20 bytes at an offset far past
        // the end; Copyright "Ada" held in the entry itself.
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 2,
                                                0x01, 0x0F, 0, 2, 0, 0, 0, 20, 0x00, 0x7F, 0xFF, 0x00,
                                                0x82, 0x98, 0, 2, 0, 0, 0, 4] + Array("Ada".utf8) + [0, 0, 0, 0, 0]
        let (out, warnings) = ImageMetadata(exif: tiff).prepared(for: .keep, size: Size(width: 4, height: 3), format: .jpeg,
                                                                 orientationApplied: false)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("partly unreadable") == true, "\(warnings)")
        let jpeg = try ImageCodec.encode(Image(width: 4, height: 3) { _, _ in Pixel(1, 1, 1, 1) },
                                         options: { var o = EncodeOptions(format: .jpeg); o.metadata = out; return o }())
        let t = try tags(jpeg, "jpg")
        XCTAssertEqual(text(t, "IFD0:Copyright"), "Ada")
        XCTAssertNil(t["IFD0:Make"])
        XCTAssertEqual(text(t, "ExifIFD:ExifImageWidth"), "4")
    }

    /// A bare XMP packet (some PNG writers leave out the wrapper) gets its `<?xpacket?>`
    /// wrapper, which JPEG readers expect: exiftool then validates the file without a warning.
    func testBareXMPIsWrapped() throws {
        let bare = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq>"#
            + #"<rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"#
        var options = EncodeOptions(format: .jpeg)
        options.metadata = ImageMetadata(xmp: Array(bare.utf8))
        let jpeg = try ImageCodec.encode(picture, options: options)
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(jpeg, named: "out.jpg", in: folder)
        let validation = try ReferenceTool.output(ReferenceTool.exiftool, ["-s3", "-validate", "-warning", "-a", path])
        XCTAssertEqual(validation.trimmingCharacters(in: .whitespacesAndNewlines), "OK")
        XCTAssertEqual(text(try tags(jpeg, "jpg"), "XMP-dc:Creator"), Self.owner)
    }

    /// A 70 KB XMP packet does not fit a JPEG marker (extended XMP is not written): the JPEG goes
    /// without it and says so; a PNG chunk holds it.
    func testXMPTooLargeForAJPEGMarkerIsReported() throws {
        let padding = String(repeating: " ", count: 70_000)
        let packet = #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">"#
            + #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="""#
            + #" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li>"#
            + #"</rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"# + padding + #"<?xpacket end="w"?>"#
        let source = ImageMetadata(xmp: Array(packet.utf8))
        let size = Size(width: 64, height: 48)
        let (jpeg, jpegWarnings) = source.prepared(for: .keep, size: size, format: .jpeg, orientationApplied: false)
        XCTAssertNil(jpeg.xmp)
        XCTAssertEqual(jpegWarnings.count, 1)
        XCTAssertTrue(jpegWarnings.first?.hasPrefix("XMP left out") == true, "\(jpegWarnings)")
        var options = EncodeOptions(format: .png)
        options.metadata = source
        XCTAssertEqual(text(try tags(try ImageCodec.encode(picture, options: options), "png"), "XMP-dc:Creator"), Self.owner)
    }
}
