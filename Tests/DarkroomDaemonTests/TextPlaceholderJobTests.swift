import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

/// draw_text's placeholders through a whole job: the EXIF fields exiftool wrote into the input
/// (even when the output strips its metadata), its name and stem, fill the text per file.
final class TextPlaceholderJobTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))

    private func render(_ folder: TemporaryFolder, _ input: String, text: String, name: String) throws -> Image {
        let chain = try ChainSyntax.parse("draw_text text=\"\(text)\" size=14 at=[4,4] color=white", registry: .shipped)
        let output = OutputConfig(pathTemplate: folder.file("out/\(name)-{stem}.png"), format: .png,
                                  encoding: OutputEncoding(metadata: .strip), chain: chain)
        let report = runner.run(inputPath: input, watchName: "photos", outputs: [output], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        return try ImageCodec.decode(try FileIO.read(try XCTUnwrap(report.outputs.first?.path))).image
    }

    func testEXIFFieldsAndTheNameFillTheTextPerFile() throws {
        let folder = TemporaryFolder()
        let card = try ImageCodec.encode(Image(width: 160, height: 40, fill: Pixel(0.1, 0.2, 0.3, 1)), options: EncodeOptions(format: .jpeg))
        let jpeg = folder.write("in/IMG_7.jpg", card)
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-Artist=Ann Example", "-Copyright=(c) 2026 Ann", jpeg])
        let metadata = try ImageCodec.readHeader(try FileIO.read(jpeg)).metadata
        let facts = InputFacts.of(inputPath: jpeg, metadata: metadata)
        XCTAssertEqual(facts.values["exif.Artist"], "Ann Example")
        XCTAssertEqual(facts.values["exif.Copyright"], "(c) 2026 Ann")
        XCTAssertNil(facts.values["exif.DateTimeOriginal"])
        XCTAssertEqual(facts.values["stem"], "IMG_7")
        XCTAssertEqual(facts.values["name"], "IMG_7.jpg")

        let viaPlaceholders = try render(folder, jpeg, text: "{exif.Artist} {exif.Copyright} {stem}", name: "a")
        let written = try render(folder, jpeg, text: "Ann Example (c) 2026 Ann IMG_7", name: "b")
        XCTAssertEqual(viaPlaceholders, written)
        let plain = try render(folder, jpeg, text: " ", name: "c")
        XCTAssertNotEqual(viaPlaceholders, plain, "the text was drawn")
    }
}
