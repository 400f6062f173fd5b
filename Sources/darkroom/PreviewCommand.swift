import ArgumentParser
import DarkroomPreviewOptions
import Foundation

/// `darkroom preview`: a local web page to author a chain by looking (docs/preview.md). The
/// options are checked here (so --help and usage errors come from `darkroom`), then the process
/// becomes `darkroom-preview`, installed next to this binary, with the same arguments and
/// standard streams: the HTTP server lives there so that `darkroom` itself never links
/// FoundationNetworking (Package.swift says why).
struct PreviewCommand: ParsableCommand {
    static let configuration = PreviewOptions.configuration

    @OptionGroup var options: PreviewOptions

    func run() throws {
        let server = Self.serverPath()
        // The arguments after the subcommand's name, as given: the server parses them again.
        let given = CommandLine.arguments.dropFirst()
        let arguments = [server] + (given.firstIndex(of: PreviewOptions.configuration.commandName ?? "preview").map { given[($0 + 1)...] } ?? [])
        fflush(nil)
        var argv = arguments.map { strdup($0) } + [nil]
        execv(server, &argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        printError("""
            darkroom preview: cannot run \(server): \(reason). The preview page is served by \
            \(PreviewOptions.serverExecutable), installed next to darkroom (the Debian package darkroom ships both; \
            `swift build` builds both into .build/debug).
            """)
        throw ExitCode(69)  // EX_UNAVAILABLE
    }

    /// `darkroom-preview` in the folder of the running binary (/proc/self/exe: the real file,
    /// whichever link or PATH entry started it).
    static func serverPath() -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(PreviewOptions.serverExecutable).path
    }
}
