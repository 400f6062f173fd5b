import ArgumentParser
import DarkroomDaemon
import DarkroomPreview
import DarkroomPreviewOptions
import Dispatch
import Foundation

/// `darkroom-preview`: serves `darkroom preview`'s page (docs/preview.md). An executable of its
/// own because the HTTP server (FlyingFox) brings FoundationNetworking and its ~30 shared
/// libraries, which every `darkroom` process would otherwise map at start-up; `darkroom preview`
/// checks the same options and execs this binary, found next to it.
@main
struct PreviewServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: PreviewOptions.serverExecutable,
        abstract: PreviewOptions.configuration.abstract,
        discussion: PreviewOptions.configuration.discussion
    )

    @OptionGroup var options: PreviewOptions

    func run() throws {
        let server: PreviewServer
        do throws(PreviewServer.StartError) {
            server = try PreviewServer(options: .init(configPath: options.config, images: options.images, port: options.port,
                                                    watch: options.watch, output: options.output))
        } catch {
            printError("darkroom preview: \(error.description)")
            throw ExitCode(64)
        }
        // SIGINT and SIGTERM stop listening and remove the scratch folder; caught from before the
        // address is printed, so that a stop right after it still cleans up.
        let stop = DispatchSemaphore(value: 0)
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            Self.signalSources.withLock { $0.append(source) }
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
        stop.wait()
        let done = DispatchSemaphore(value: 0)
        Task { await server.stop(); done.signal() }
        done.wait()
    }

    private func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static let signalSources = Locked<[any DispatchSourceSignal]>([])
}
