@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// A reference tool (`vips`, ImageMagick `convert`) that tests run on images exchanged as files in
/// a temporary folder.
///
/// CI installs both, and a comparison that silently skips there proves nothing: when `CI` is set a
/// missing tool fails the test; only on a developer's machine without it does the test skip.
struct ExternalTool: Sendable {
    /// The command, looked up on `PATH`.
    let name: String
    /// The Debian package that provides it, for the message when it is missing.
    let package: String

    static let vips = ExternalTool(name: "vips", package: "libvips-tools")
    static let convert = ExternalTool(name: "convert", package: "imagemagick")

    /// Thrown instead of `XCTSkip` when the tool is missing under CI, so the test fails.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The executable's path on the `PATH` of `environment`, or nil when it is not installed.
    func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The executable's path; when it is missing, throws `Missing` (the test fails) if `CI` is set
    /// in `environment`, and `XCTSkip` otherwise.
    func require(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let path = locate(environment: environment) { return path }
        let message = "\(name) is not installed: install \(package) (scripts/install-deps.sh)"
        if let ci = environment["CI"], !ci.isEmpty { throw Missing(description: message) }
        throw XCTSkip(message + "; with CI set this test fails instead of skipping")
    }

    /// Writes `input` as `input.<ext>` in `inputFormat`, with `files` (name → text, e.g. a vips
    /// matrix) beside it, runs the tool there with `arguments` where `$IN` and `$OUT` stand for the
    /// input and `output.<ext>` paths, and reads the output back in `outputFormat`.
    func run(_ input: Image, inputFormat: ImageFileFormat = .ppm, outputFormat: ImageFileFormat = .ppm,
             _ arguments: [String], files: [String: String] = [:]) throws -> Image {
        let executable = try require()
        let folder = TemporaryFolder(prefix: "darkroom-tool")
        defer { withExtendedLifetime(folder) {} }  // removed only when the tool is done
        let dir = URL(fileURLWithPath: folder.path)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let inURL = dir.appendingPathComponent("input.\(inputFormat.fileExtension)")
        let outURL = dir.appendingPathComponent("output.\(outputFormat.fileExtension)")
        try inputFormat.encode(input).write(to: inURL)
        try ToolProcess.run(executable, arguments.map { $0 == "$IN" ? inURL.path : $0 == "$OUT" ? outURL.path : $0 },
                            in: dir)
        return try Netpbm.read(Data(contentsOf: outURL))
    }
}
