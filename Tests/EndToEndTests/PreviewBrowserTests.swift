import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// `darkroom preview` in a real browser: the binary serves the page, Debian's headless Chromium
/// shows it under Selenium (Browser/preview_check.py, one scenario per test), and what the
/// page shows is checked against `darkroom filters`, `process` and `check`.
final class PreviewBrowserTests: XCTestCase {
    func testThePageListsEveryRegisteredFilterAndSearchesThem() throws {
        try withPreview { try $0.run("catalogue") }
    }

    func testMovingSepiaIntensityChangesThePictureAndTheCopiedChainRendersTheSameBytes() throws {
        try withPreview { try $0.run("sepia") }
    }

    func testAnOutOfRangeValueShowsCheckMessageAtItsControl() throws {
        try withPreview { try $0.run("range") }
    }

    func testSaveReplacesOnlyThatChainAndCheckAcceptsTheConfig() throws {
        try withPreview(arguments: { ["--config", $0.file("config.yaml"), "--watch", "photos", "--output", "1"] }) { try $0.run("save") }
    }

    func testTokenHostPathsAndLoopbackOnly() throws {
        try withPreview(arguments: { ["--config", $0.file("config.yaml")] }) { try $0.run("safety") }
    }

    func testRandomWithTheSeedOnThePageDrawsAsProcessWithThatSeed() throws {
        try withPreview { try $0.run("random") }
    }

    func testMovingAStepAndSwitchingOneOffChangeThePictureAsProcessDoes() throws {
        try withPreview { try $0.run("reorder") }
    }

    func testSplitViewShowsTheOriginalLeftOfTheDividerAndTheOutputRight() throws {
        try withPreview { try $0.run("split") }
    }

    func testSaveIsRefusedWith409WhenTheConfigChangedOnDiskAndASecondSaveKeepsTheOtherChange() throws {
        try withPreview(arguments: { ["--config", $0.file("config.yaml"), "--watch", "photos", "--output", "1"] }) { try $0.run("conflict") }
    }

    func testTheFilePickerOffersOnlyFilesInsideAndOtherPathsAreRefused() throws {
        try withPreview(arguments: { ["--config", $0.file("config.yaml")] }) { try $0.run("assets") }
    }

    /// A slow render (big image, slow filters) is under way, its strips reported; a newer edit
    /// stops it part-way (fewer strips than its total) with a clean "superseded", and the newer
    /// edit's picture is the one returned, the bytes `process` writes.
    func testANewerEditCancelsTheOlderRenderInsideItsStep() throws {
        try withPreview(arguments: bigImage) { try $0.run("cancel") }
    }

    /// The page asks for an edit's approximate picture and its exact one at once; the exact
    /// render waits for the approximate one (starting it itself if need be) instead of sharing
    /// the cores with it, and both requests get the one approximate render.
    func testTheExactRenderWaitsForTheApproximateOneWhichBothRequestsShare() throws {
        try withPreview(arguments: bigImage) { try $0.run("approximate") }
    }

    func testPreviewRefusesAWatchTheConfigLacks() throws {
        let folder = try scratch()
        let result = try darkroom(["preview", "--config", folder.file("config.yaml"), "--watch", "nope"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--watch nope: no such watch; the config has photos"), result.stderr)
    }

    // MARK: harness

    /// The preview's arguments for one big image, `big.png` (2000×1500), made in `folder`.
    private func bigImage(_ folder: TemporaryFolder) throws -> [String] {
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.file("big.png"), contents: Data(try picture(width: 2000, height: 1500, format: .png))))
        return [folder.file("big.png")]
    }

    /// A running preview and how to run a scenario against it.
    struct Preview {
        let url: String
        let folder: TemporaryFolder
        /// A folder outside every folder the preview may read, holding `logo.png`.
        let outside: TemporaryFolder
        let image: String

        func run(_ scenario: String) throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/preview_check.py").path
            var arguments = [script, scenario, "--url", url, "--darkroom", try DaemonProcess.binaryPath(),
                             "--image", image, "--config", folder.file("config.yaml"), "--scratch", folder.path,
                             "--outside", outside.path]
            if let shot = ProcessInfo.processInfo.environment["DARKROOM_PREVIEW_SCREENSHOT"] { arguments += ["--screenshot", shot] }
            let result = try runProgram("/usr/bin/env", ["python3"] + arguments)
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            XCTAssertTrue(result.stdout.contains("ok \(scenario)"), result.stdout + result.stderr)
        }
    }

    /// The scratch tree: a config with watch `photos` (two outputs), an image, and, next to the
    /// watch folder, a secret file and a link to it from inside.
    private func scratch() throws -> TemporaryFolder {
        let folder = TemporaryFolder(prefix: "darkroom-preview")
        let fm = FileManager.default
        for sub in ["inbox", "out"] { try fm.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true) }
        let bytes = try picture(width: 160, height: 100, format: .png)
        XCTAssertTrue(fm.createFile(atPath: folder.file("photo.png"), contents: Data(bytes)))
        XCTAssertTrue(fm.createFile(atPath: folder.file("inbox/in.png"), contents: Data(bytes)))
        XCTAssertTrue(fm.createFile(atPath: folder.file("secret.png"), contents: Data(bytes)))
        try fm.createSymbolicLink(atPath: folder.file("inbox/link.png"), withDestinationPath: folder.file("secret.png"))
        let config = """
            # preview test config: comments and other lines must survive a save
            workers: 1
            watches:
              - name: photos
                path: ./inbox   # the inbox
                outputs:
                  - path: ./out/{stem}-small.jpg
                    chain:
                      - resize: { width: 80 }
                  - path: ./out/{stem}-warm.png
                    chain:
                      - resize: { width: 120, fit: inside }
                      # a comment inside the chain's neighbourhood
                    format: png
            """
        try (config + "\n").write(toFile: folder.file("config.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Runs `body` against `darkroom preview` on the scratch tree's image (and the arguments
    /// given), stopping it afterwards.
    private func withPreview(arguments: (TemporaryFolder) throws -> [String] = { _ in [] }, _ body: (Preview) throws -> Void) throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
            try TestEnvironment.require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) (Debian chromium, chromium-driver: scripts/install-deps.sh)")
        }
        let selenium = try runProgram("/usr/bin/env", ["python3", "-c", "import selenium"])
        try TestEnvironment.require(selenium.status == 0, "Selenium for python3 (scripts/install-deps.sh)")
        let folder = try scratch()
        let outside = TemporaryFolder(prefix: "darkroom-preview-outside")
        XCTAssertTrue(FileManager.default.createFile(atPath: outside.file("logo.png"), contents: Data(try picture(width: 20, height: 20, format: .png))))
        try FileManager.default.createSymbolicLink(atPath: folder.file("outlink.png"), withDestinationPath: outside.file("logo.png"))
        let preview = try RunningPreview((try arguments(folder)) + [folder.file("photo.png")], in: folder.path)
        defer { preview.stop() }
        // The first line printed names the page.
        let line = preview.firstLine
        let url = try XCTUnwrap(line.range(of: "http://127.0.0.1:[0-9]+/\\?token=[0-9a-f]{64}", options: .regularExpression).map { String(line[$0]) },
                                "darkroom preview printed: \(line)")
        try body(Preview(url: url, folder: folder, outside: outside, image: folder.file("photo.png")))
    }
}
