import ArgumentParser
import DarkroomCodecs
import DarkroomDaemon
import DarkroomPreview
import Dispatch
import Foundation

/// `darkroom preview`: a local web page to author a chain by looking, rendered by the engine
/// itself (docs/preview.md).
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: "The config whose chains can be opened and saved; its watch folders' images can be opened.")
    var config: String?

    @Option(help: "Open this watch's chain first (with --config).")
    var watch: String?

    @Option(help: "Which output of --watch, counted from 0 (default 0).")
    var output: Int?

    @Option(help: "Port on 127.0.0.1 and ::1; 0 picks a free one.")
    var port: UInt16 = 0

    @ArgumentParser.Argument(help: "Images to preview on.", completion: .file(extensions: ImageFormat.allCases.flatMap(\.fileExtensions)))
    var images: [String] = []

    func run() throws {
        let server: PreviewServer
        do throws(PreviewServer.StartError) {
            server = try PreviewServer(options: .init(configPath: config, images: images, port: port, watch: watch, output: output))
        } catch {
            printError("darkroom preview: \(error.description)")
            throw ExitCode(64)
        }
        let started = Locked<Result<String, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        Task {
            do {
                let url = try await server.start()
                started.withLock { $0 = .success(url) }
            } catch {
                started.withLock { $0 = .failure(error) }
            }
            ready.signal()
        }
        ready.wait()
        switch started.current {
        case .success(let url)?:
            print("darkroom preview: open \(url)")
            print("(listening on 127.0.0.1 and ::1 only; Ctrl-C stops it)")
            fflush(nil)  // print goes through C's stdout, buffered when it is a pipe
        case .failure(let error)?:
            printError("darkroom preview: \(error)")
            throw ExitCode(1)
        case nil:
            throw ExitCode(1)
        }
        // Until SIGINT or SIGTERM: then stop listening and remove the scratch folder.
        let stop = DispatchSemaphore(value: 0)
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            Self.signalSources.withLock { $0.append(source) }
        }
        stop.wait()
        let done = DispatchSemaphore(value: 0)
        Task { await server.stop(); done.signal() }
        done.wait()
    }

    private static let signalSources = Locked<[any DispatchSourceSignal]>([])
}
