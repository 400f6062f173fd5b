import Foundation

/// DNGs for the camera RAW tests, written by scripts/make-dng.py (tifffile from PyPI, which
/// scripts/install-deps.sh installs): a known picture mosaiced into a Bayer pattern.
public enum DNGFile {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/make-dng.py").standardized.path

    /// Runs make-dng.py with `arguments` (`in.ppm out.dng …` or `--synthetic WxH out.dng …`).
    public static func make(_ arguments: [String]) throws {
        guard let python = ToolProcess.locate("python3"), (try? ToolProcess.run(python, ["-c", "import tifffile"])) != nil else {
            throw TestEnvironment.unavailable("python3 with tifffile (PyPI) is needed to write DNGs: scripts/install-deps.sh")
        }
        try ToolProcess.run(python, [script] + arguments)
    }
}
