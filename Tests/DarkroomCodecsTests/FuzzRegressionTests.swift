import DarkroomCodecs
import Foundation
import XCTest

/// The libFuzzer harness's decode (``FuzzDecode``, what `make fuzz` runs) on the fixtures that seed
/// it, and on every input fuzzing found a failure with (Fixtures/fuzz/, named after the format):
/// each must now fail with a clean `CodecError`, where it once crashed, hung or leaked.
final class FuzzRegressionTests: XCTestCase {
    static let limits = DecodeLimits()
    static let fuzzDirectory = Fixtures.directory.appendingPathComponent("fuzz")

    /// The seeds decode through the harness's path: were it to fail on good files, fuzzing would
    /// only ever explore error paths. huge_header.png, which declares 100000×100000, is the one
    /// refused, as a job refuses it.
    func testEverySeedFixtureDecodesThroughTheHarness() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path).sorted()
        var seen = Set<ImageFormat>()
        for name in names {
            guard let data = FileManager.default.contents(atPath: Fixtures.path(name)) else { continue }
            let input = ImageInput([UInt8](data))
            guard let format = input.format else { continue }
            seen.insert(format)
            let error = FuzzDecode.run(input, limits: Self.limits)
            if name == "huge_header.png" {
                XCTAssertEqual(error?.code, .tooLarge, name)
            } else {
                XCTAssertNil(error, "\(name): \(error.map { "\($0.code): \($0.message)" } ?? "")")
            }
        }
        XCTAssertEqual(seen, Set(ImageFormat.allCases), "every format darkroom reads has a fixture to seed its fuzzing")
    }

    func testEveryInputFuzzingFoundFailsCleanly() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.fuzzDirectory.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let bytes = try [UInt8](Data(contentsOf: Self.fuzzDirectory.appendingPathComponent(name)))
            let error = FuzzDecode.run(ImageInput(bytes), limits: Self.limits)
            XCTAssertNotNil(error, "\(name) decodes; a kept fuzz input is a broken file")
            if let error { XCTAssertFalse(error.message.isEmpty, name) }
        }
    }
}
