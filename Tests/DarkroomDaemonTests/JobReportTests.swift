@testable import DarkroomCore
import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

final class JobReportTests: XCTestCase {
    func sampleReport() -> JobReport {
        let queued = Date(timeIntervalSince1970: 1_700_000_000)
        return JobReport(
            watch: "photos",
            input: .init(path: "/in/a.jpg", bytes: 1234, sha256: "ab", format: "jpeg", width: 40, height: 30,
                         colorSpace: "srgb", orientation: 6),
            outputs: [.init(path: "/out/a.png", format: "png", width: 20, height: 15, bytes: 99,
                            chain: [.init(filter: "sepia", parameters: ["intensity": .number(0.5)], random: ["intensity"])],
                            seed: 42, nodes: [.init(filters: ["decode", "sepia"], seconds: 0.01, width: 20, height: 15)],
                            peakPixelBytes: 4096, shrinkOnLoad: 1)],
            timings: .init(queued: queued, started: queued.addingTimeInterval(0.5), finished: queued.addingTimeInterval(1.25),
                           decode: 0.1, encode: 0.2, total: 0.75),
            status: .ok, configSHA256: "cafe")
    }

    func testFieldNamesAreTheDocumentedSnakeCaseKeys() throws {
        let json = try jsonObject(sampleReport())
        XCTAssertEqual(Set(json.keys), ["schema_version", "watch", "input", "outputs", "timings", "status", "error",
                                        "darkroom_version", "config_sha256", "node"])
        XCTAssertEqual(json["schema_version"] as? Int, 2)
        XCTAssertEqual(json["status"] as? String, "ok")
        XCTAssertEqual(json["config_sha256"] as? String, "cafe")
        XCTAssertEqual(json["darkroom_version"] as? String, DarkroomVersion.string)
        XCTAssertTrue(json["error"] is NSNull, "an absent error is null, not a missing key")
        XCTAssertTrue(json["node"] is NSNull, "outside cluster mode no node wrote it")

        let input = try XCTUnwrap(json["input"] as? [String: Any])
        XCTAssertEqual(Set(input.keys), ["path", "bytes", "sha256", "format", "width", "height", "color_space", "bit_depth",
                                         "orientation", "shrink_on_load", "warning", "icc", "pages", "thumbnail"])
        XCTAssertEqual(input["color_space"] as? String, "srgb")
        XCTAssertEqual(input["orientation"] as? Int, 6)

        let output = try XCTUnwrap((json["outputs"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(output.keys), ["path", "format", "width", "height", "bytes", "chain", "seed", "nodes",
                                          "peak_pixel_bytes", "estimated_pixel_bytes", "shrink_on_load", "conflict",
                                          "orientation_applied", "color_converted_from", "frames", "page", "thumbnail"])
        XCTAssertTrue(output["conflict"] is NSNull, "no conflict is null, not a missing key")
        XCTAssertTrue(output["page"] is NSNull, "a raster input draws no page: null, not a missing key")
        XCTAssertEqual(output["seed"] as? Int, 42)
        let step = try XCTUnwrap((output["chain"] as? [[String: Any]])?.first)
        XCTAssertEqual(step["filter"] as? String, "sepia")
        XCTAssertEqual((step["parameters"] as? [String: Any])?["intensity"] as? Double, 0.5)
        XCTAssertEqual(step["random"] as? [String], ["intensity"])
        let node = try XCTUnwrap((output["nodes"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(node.keys), ["filters", "seconds", "width", "height"])
        XCTAssertEqual(output["peak_pixel_bytes"] as? Int, 4096)

        let timings = try XCTUnwrap(json["timings"] as? [String: Any])
        XCTAssertEqual(Set(timings.keys), ["queued", "started", "finished", "decode", "encode", "total"])
        XCTAssertEqual(timings["queued"] as? String, "2023-11-14T22:13:20.000Z")
        XCTAssertEqual(timings["finished"] as? String, "2023-11-14T22:13:21.250Z")
    }

    func testUnknownInputFieldsAreNullAndErrorsCarryCodeAndMessage() throws {
        var report = sampleReport()
        report.input = .init(path: "/in/notes.jpg", bytes: 5, sha256: "ff")
        report.outputs = []
        report.status = .failed
        report.error = ReportError(code: .notAnImage, message: "no PNG or JPEG signature")
        let json = try jsonObject(report)
        let input = try XCTUnwrap(json["input"] as? [String: Any])
        for key in ["format", "width", "height", "color_space", "bit_depth", "orientation"] {
            XCTAssertTrue(input[key] is NSNull, key)
        }
        XCTAssertEqual(json["status"] as? String, "failed")
        let error = try XCTUnwrap(json["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "not_an_image")
        XCTAssertEqual(error["message"] as? String, "no PNG or JPEG signature")
    }

    func testReadsBackWhatItWrites() throws {
        let folder = TemporaryFolder()
        let report = sampleReport()
        try report.write(to: folder.file("reports/sub/a.jpg.json"))
        XCTAssertEqual(JobReport.read(from: folder.file("reports/sub/a.jpg.json")), report)
        XCTAssertNil(JobReport.read(from: folder.file("reports/missing.json")))
        folder.write("reports/garbage.json", Array("{not json".utf8))
        XCTAssertNil(JobReport.read(from: folder.file("reports/garbage.json")))
    }

    func testParameterValuesAsTheReportShowsThem() {
        XCTAssertEqual(ReportValue(.number(.pi / 2), kind: .angle), .string("90deg"), "angles in degrees, marked as such")
        XCTAssertEqual(ReportValue(.number(0.25), kind: .scalar), .number(0.25))
        XCTAssertEqual(ReportValue(.length(Length(12.5, percent: true)), kind: .length), .string("12.5%"))
        XCTAssertEqual(ReportValue(.point(Length(-25), Length(15)), kind: .point), .array([.number(-25), .number(15)]))
        XCTAssertEqual(ReportValue(.color(RGBA(1, 0, 0)), kind: .color), .string("#ff0000ff"))
        XCTAssertEqual(ReportValue(.choice("lanczos3"), kind: nil), .string("lanczos3"))
        XCTAssertEqual(ReportValue(.bool(true), kind: .boolean), .bool(true))
    }
}
