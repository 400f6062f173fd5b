import ArgumentParser
import DarkroomCodecs

/// `darkroom preview`'s command line, declared once for the two executables that parse it: the
/// `darkroom` command (which checks it, answers --help, then hands over to `darkroom-preview`)
/// and `darkroom-preview` (which serves the page). This module must not depend on the preview
/// server: `darkroom` links it, and the server's HTTP package brings FoundationNetworking.
public struct PreviewOptions: ParsableArguments {
    /// The subcommand's name, help and discussion.
    public static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Author a chain by looking: a local web page rendered by darkroom itself.",
        discussion: """
            Serves a page on 127.0.0.1 (and ::1) only, at the address printed with its token. \
            The page lists every filter; build a chain, see the exact output beside the original, \
            and copy the chain as config YAML or as `process` syntax. With --config, open any \
            watch's output chain and save it back into the file (the old file kept as FILE~). \
            Stop with Ctrl-C. See docs/preview.md.
            """
    )

    /// The name of the executable that serves the page, installed next to `darkroom`.
    public static let serverExecutable = "darkroom-preview"

    @Option(help: "The config whose chains can be opened and saved; its watch folders' images can be opened.")
    public var config: String?

    @Option(help: "Open this watch's chain first (with --config).")
    public var watch: String?

    @Option(help: "Which output of --watch, counted from 0 (default 0).")
    public var output: Int?

    @Option(help: "Port on 127.0.0.1 and ::1; 0 picks a free one.")
    public var port: UInt16 = 0

    @ArgumentParser.Argument(help: "Images to preview on.", completion: .file(extensions: ImageFormat.allCases.flatMap(\.fileExtensions)))
    public var images: [String] = []

    public init() {}
}
