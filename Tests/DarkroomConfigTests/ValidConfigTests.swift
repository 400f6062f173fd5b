import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest
@testable import DarkroomConfig

final class ValidConfigTests: XCTestCase {
    func testDefaultsAreFilledAndRelativePathsResolveAgainstTheBase() throws {
        let config = try parse(minimalConfig)
        XCTAssertEqual(config.workers, 2)
        XCTAssertEqual(config.queueCapacity, 512)
        XCTAssertEqual(config.limits, Limits(maxPixels: 100_000_000, maxFileBytes: 256 * 1024 * 1024))
        XCTAssertEqual(config.log, LogSettings(level: "info", format: .text))
        XCTAssertNil(config.sourcePath)
        XCTAssertEqual(config.sourceText, minimalConfig)
        let watch = try XCTUnwrap(config.watches.first)
        XCTAssertEqual(watch.name, "inbox")
        XCTAssertEqual(watch.path, "/srv/darkroom/inbox")
        XCTAssertFalse(watch.recursive)
        // Every extension of every format the codecs read, and so the ones a user drops in.
        XCTAssertEqual(watch.include, ImageFormat.allCases.flatMap { $0.fileExtensions.map { "*." + $0 } })
        for glob in ["*.jpg", "*.jpeg", "*.png", "*.gif", "*.heic", "*.tif", "*.jxl", "*.dng", "*.cr3", "*.nef", "*.pef", "*.pdf", "*.svg", "*.svgz"] {
            XCTAssertTrue(watch.include.contains(glob), glob)
        }
        XCTAssertEqual(watch.settleMilliseconds, 250)
        XCTAssertEqual(watch.onSuccess, .move)
        XCTAssertEqual(watch.doneDirectory, "/srv/darkroom/done")
        XCTAssertEqual(watch.failedDirectory, "/srv/darkroom/failed")
        XCTAssertEqual(watch.reportsDirectory, "/srv/darkroom/reports")
        XCTAssertNil(watch.seed)
        let output = try XCTUnwrap(watch.outputs.first)
        XCTAssertEqual(output.pathTemplate, "/srv/darkroom/outbox/{stem}.png")
        XCTAssertEqual(output.format, .png)
        XCTAssertEqual(output.quality, 90)
        XCTAssertFalse(output.progressive)
        XCTAssertEqual(output.chain.steps, [])
    }

    func testEveryFieldIsRead() throws {
        let config = try parse("""
            workers: 8
            queue_capacity: 10_000
            limits: { max_pixels: 50000000, max_file_bytes: 10MB }
            log: { level: DEBUG, format: json }
            watches:
              - name: photos
                path: ../shared/./in//photos/
                recursive: yes
                include: "*.PNG"
                settle_ms: 0
                on_success: keep
                done_dir: /var/done
                failed_dir: ~/failed
                reports_dir: reports
                seed: 18446744073709551615
                outputs:
                  - path: /out/{watch}/{stem}.jpeg
                    quality: 70
                    progressive: true
                    chain: [invert]
                  - path: /out/{watch}/{name}.{ext}.img
                    format: jpg
            """)
        XCTAssertEqual(config.workers, 8)
        XCTAssertEqual(config.queueCapacity, 10_000)
        XCTAssertEqual(config.limits, Limits(maxPixels: 50_000_000, maxFileBytes: 10_000_000))
        XCTAssertEqual(config.log, LogSettings(level: "debug", format: .json))
        let w = try XCTUnwrap(config.watches.first)
        XCTAssertEqual(w.name, "photos")
        XCTAssertEqual(w.path, "/srv/shared/in/photos")
        XCTAssertTrue(w.recursive)
        XCTAssertEqual(w.include, ["*.PNG"])
        XCTAssertEqual(w.settleMilliseconds, 0)
        XCTAssertEqual(w.onSuccess, .keep)
        XCTAssertEqual(w.doneDirectory, "/var/done")
        XCTAssertEqual(w.failedDirectory, FileManager.default.homeDirectoryForCurrentUser.standardized.path + "/failed")
        XCTAssertEqual(w.reportsDirectory, "/srv/darkroom/reports")
        XCTAssertEqual(w.seed, UInt64.max)
        XCTAssertEqual(w.outputs.map(\.format), [.jpeg, .jpeg])
        XCTAssertEqual(w.outputs.map(\.quality), [70, 90])
        XCTAssertEqual(w.outputs.map(\.progressive), [true, false])
        XCTAssertEqual(w.outputs[0].chain.steps.map(\.name), ["invert"])
        XCTAssertEqual(w.outputs[0].path(forInput: "/srv/shared/in/photos/IMG_1.JPG", watch: w.name),
                       "/out/photos/IMG_1.jpeg")
        XCTAssertEqual(w.outputs[1].path(forInput: "/x/a.b.png", watch: w.name), "/out/photos/a.b.png.png.img")
    }

    func testSizeSuffixes() throws {
        for (text, bytes) in [("256MiB", 268_435_456), ("10MB", 10_000_000), ("1GiB", 1_073_741_824),
                              ("4096", 4096), ("1.5 KiB", 1536), ("2kb", 2000), ("7B", 7)] {
            let config = try parse("limits: { max_file_bytes: \(text) }\n" + minimalConfig)
            XCTAssertEqual(config.limits.maxFileBytes, bytes, text)
        }
    }

    func testChainStepsKeepTheParametersInTheOrderWritten() throws {
        let config = try parse("""
            watches:
              - path: ./inbox
                outputs:
                  - path: ./outbox/{stem}.png
                    chain:
                      - color_controls: { contrast: 1.5, brightness: 0.1 }
                      - hue:
                          angle: 90deg
                      - gamma: { power: random }
                      - sepia
            """)
        let steps = try XCTUnwrap(config.watches.first?.outputs.first?.chain.steps)
        XCTAssertEqual(steps.map(\.name), ["color_controls", "hue", "gamma", "sepia"])
        XCTAssertEqual(steps[0].arguments.map(\.name), ["contrast", "brightness"])
        XCTAssertEqual(steps[0].arguments.map(\.argument), [.value(.number(1.5)), .value(.number(0.1))])
        XCTAssertEqual(steps[1].arguments.first?.argument, .value(.number(Double.pi / 2)))
        XCTAssertEqual(steps[2].arguments.first?.argument, .random)
        XCTAssertTrue(steps[3].arguments.isEmpty)
        XCTAssertTrue(config.watches[0].outputs[0].chain.usesRandom)
    }

    func testRandomIsAcceptedForNumericParameters() throws {
        let config = try parse("""
            watches:
              - path: ./inbox
                seed: 7
                outputs:
                  - path: ./outbox/{stem}.png
                    chain:
                      - sepia: { intensity: random }
                      - hue: { angle: random }
            """)
        let chain = config.watches[0].outputs[0].chain
        XCTAssertEqual(chain.steps.map { $0.arguments.map(\.argument) }, [[.random], [.random]])
        // The drawn intensity lies inside the slider range 0…1.
        let resolved = try chain.resolve(seed: 7)
        let intensity = try XCTUnwrap(resolved[0].parameters.number("intensity"))
        XCTAssertTrue((0...1).contains(intensity))
    }

    func testLoadResolvesAgainstTheConfigFileFolderAndRecordsTheSource() throws {
        let temporary = TemporaryFolder(prefix: "darkroom-config")
        defer { withExtendedLifetime(temporary) {} }
        let folder = URL(fileURLWithPath: temporary.path)
        let file = folder.appendingPathComponent("darkroom.yaml")
        try minimalConfig.write(to: file, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: file.path)
        let base = ConfigPath.standardize(folder.path)
        XCTAssertEqual(config.sourcePath, base + "/darkroom.yaml")
        XCTAssertEqual(config.sourceText, minimalConfig)
        XCTAssertEqual(config.watches[0].path, base + "/inbox")
        XCTAssertEqual(config.watches[0].outputs[0].pathTemplate, base + "/outbox/{stem}.png")
    }

    func testLoadOfAMissingFileSaysSo() {
        XCTAssertThrowsError(try ConfigLoader.load(path: "/nonexistent/darkroom.yaml")) { error in
            let d = (error as? ConfigError)?.diagnostics
            XCTAssertEqual(d?.count, 1)
            XCTAssertEqual(d?.first?.file, "/nonexistent/darkroom.yaml")
            XCTAssertTrue(d?.first?.description.hasPrefix("/nonexistent/darkroom.yaml: cannot read") == true, "\(String(describing: d))")
        }
    }
}
