import Foundation

/// Runs a reference command-line tool (`identify-im6.q16`, `exiftool`) on files and returns what
/// it printed. The tools come from scripts/install-deps.sh; a missing one fails the test with the
/// package to install, since a check that silently skips proves nothing.
public enum ReferenceTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `exiftool` (Debian libimage-exiftool-perl) and ImageMagick 6's `identify` and `convert`.
    public static let exiftool = ("exiftool", "libimage-exiftool-perl")
    public static let identify = ("identify-im6.q16", "imagemagick")
    public static let convert = ("convert-im6.q16", "imagemagick")
    /// Little CMS's own ICC applier for JPEG (the reference for rendering intents).
    public static let jpgicc = ("jpgicc", "liblcms2-utils")
    /// librsvg's renderer: the reference for shapes, paths, strokes and fill rules.
    public static let rsvgConvert = ("rsvg-convert", "librsvg2-bin")
    /// libvips' command line: an independent PNG reader (libspng or libpng).
    public static let vips = ("vips", "libvips-tools")
    /// The PNG format's own checker: chunk CRCs, the zlib stream, the rows' filter bytes.
    public static let pngcheck = ("pngcheck", "pngcheck")

    /// Standard output of `tool` run with `arguments`; throws when it is missing or fails.
    public static func output(_ tool: (name: String, package: String), _ arguments: [String]) throws -> String {
        guard let path = ToolProcess.locate(tool.name) else {
            throw Failure(description: "\(tool.name) is not installed: install \(tool.package) (scripts/install-deps.sh)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool.name) \(arguments.joined(separator: " ")) failed: \(message)")
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// Writes `bytes` to a fresh file named `name` in `folder` and returns its path.
    public static func file(_ bytes: [UInt8], named name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension TemporaryFolder {
    /// The bytes of `relative` in the folder.
    public func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(relative))))
    }
}
