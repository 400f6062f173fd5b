import DarkroomCore
import Foundation
import XCTest

/// Runs reference tools (`vips`, ImageMagick `convert`) on images exchanged as Netpbm files in
/// a temporary folder. Tests skip when the tool is not installed; CI installs both.
struct ExternalTool {
    let path: String

    static let vips = ExternalTool(path: "/usr/bin/vips")
    static let convert = ExternalTool(path: "/usr/bin/convert")

    /// Writes `input` as `input.<ext>`, runs the tool with `arguments` where `$IN` and `$OUT`
    /// stand for the input and `output.<outputExtension>` paths, and reads the result.
    func run(_ input: Image, inputExtension: String = "ppm", outputExtension: String = "ppm",
             _ arguments: [String]) throws -> Image {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("\(path) is not installed")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("input.\(inputExtension)")
        let outURL = dir.appendingPathComponent("output.\(outputExtension)")
        try (inputExtension == "pam" ? Netpbm.pam(input) : Netpbm.ppm(input)).write(to: inURL)
        try ToolProcess.run(path, arguments.map { $0 == "$IN" ? inURL.path : $0 == "$OUT" ? outURL.path : $0 })
        return try Netpbm.read(Data(contentsOf: outURL))
    }
}
