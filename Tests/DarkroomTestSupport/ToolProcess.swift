import Foundation

/// Runs a command-line tool to completion; throws with its standard error when it fails.
/// Shared by the tests that compare with `vips` and ImageMagick (every test target).
public enum ToolProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(message)")
        }
    }
}
