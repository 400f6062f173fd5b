import Foundation

/// A `darkroom preview` the test started, and the first line it printed (the page's address).
final class RunningPreview {
    let process = Process()
    private(set) var firstLine = ""

    /// Starts `darkroom preview ARGUMENTS` (stderr discarded) and waits for its first line.
    init(_ arguments: [String], in directory: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
        process.arguments = ["preview"] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        firstLine = String(decoding: printed, as: UTF8.self)
    }

    /// SIGTERM, as Ctrl-C's twin, and waits for the end.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
}
