import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import DarkroomDrawing
import FlyingFox
import FlyingSocks
import Foundation

/// `darkroom preview`'s web server: the page and its API on 127.0.0.1 and ::1 only, behind a
/// random token (``AccessGuard``), reading only inside its folders (``FileScope``).
public final class PreviewServer: Sendable {
    /// What to serve.
    public struct Options: Sendable {
        /// The config whose chains can be opened and saved; nil: chains are made from scratch.
        public var configPath: String?
        /// The images named on the command line.
        public var images: [String]
        /// 0 picks a free port.
        public var port: UInt16
        /// The watch and output whose chain the page opens first.
        public var watch: String?
        public var output: Int?

        public init(configPath: String?, images: [String], port: UInt16, watch: String?, output: Int?) {
            (self.configPath, self.images, self.port, self.watch, self.output) = (configPath, images, port, watch, output)
        }
    }

    /// Why the preview cannot start; the text is for the user as is.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    let api: PreviewAPI
    private let servers = Locked([HTTPServer]())
    private let scratch: String

    /// Reads the config (refusing one `check` refuses) and the images, and prepares a private
    /// scratch folder; nothing listens yet.
    public init(options: Options) throws(StartError) {
        var config: DaemonConfig?
        var session: ConfigSession?
        let check = ChainCheck(registry: .shipped, assets: SharedAssets.store)
        if let path = options.configPath {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            let s = ConfigSession(path: FileScope.real(absolute) ?? absolute, registry: .shipped, check: check)
            do throws(ConfigError) { config = try s.load() } catch { throw StartError(description: error.description) }
            session = s
        }
        for image in options.images where !FileManager.default.isReadableFile(atPath: image) {
            throw StartError(description: "\(image): cannot read it")
        }
        var initial: (watch: Int, output: Int)?
        if let watchName = options.watch {
            guard let config, let w = config.watches.firstIndex(where: { $0.name == watchName }) else {
                throw StartError(description: "--watch \(watchName): " + (config == nil ? "give --config too"
                    : "no such watch; the config has " + (config?.watches.map(\.name).joined(separator: ", ") ?? "")))
            }
            let o = options.output ?? 0
            guard config.watches[w].outputs.indices.contains(o) else {
                throw StartError(description: "--output \(o): watch \(watchName) has \(config.watches[w].outputs.count) output(s), numbered from 0")
            }
            initial = (w, o)
        } else if options.output != nil {
            throw StartError(description: "--output needs --watch")
        }
        let scope = FileScope(configFolder: session?.folder,
                              watchFolders: config?.watches.map { ($0.name, $0.path, $0.doneDirectory) } ?? [],
                              images: options.images)
        guard let dir = mkdtemp(strdup(NSTemporaryDirectory() + "/darkroom-preview-XXXXXX")).map({ String(cString: $0) }) else {
            throw StartError(description: "cannot make a scratch folder in \(NSTemporaryDirectory())")
        }
        scratch = dir
        let renderer = PreviewRenderer(limits: config?.limits ?? Limits(), scratch: dir)
        api = PreviewAPI(scope: scope, renderer: renderer, check: check, session: session, initial: initial,
                         assetBase: session?.folder ?? options.images.first.map { FileScope.real(($0 as NSString).deletingLastPathComponent) ?? "." }
                            ?? FileManager.default.currentDirectoryPath,
                         port: options.port)
    }

    deinit { try? FileManager.default.removeItem(atPath: scratch) }

    /// Starts listening on 127.0.0.1 (on `port`, or a free one) and on ::1 at the same port
    /// where the machine has IPv6; returns the page's address with its token.
    /// How long a request may take before FlyingFox answers 500 for it: a render may run for
    /// `limits.max_seconds`, after waiting for the page's older render to stop.
    private var answerSeconds: Double { api.renderer.limits.maxSeconds + 60 }

    public func start() async throws -> String {
        let v4 = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: api.requestedPort), timeout: answerSeconds, logger: DisabledLogger.disabled, handler: api)
        let runV4 = Task { try await v4.run() }
        do { try await v4.waitUntilListening(timeout: 10) } catch {
            runV4.cancel()
            throw StartError(description: "cannot listen on 127.0.0.1:\(api.requestedPort): \(error.localizedDescription)")
        }
        guard case .ip4(_, let port)? = await v4.listeningAddress else { throw StartError(description: "the server has no address") }
        api.setPort(port)
        servers.withLock { $0.append(v4) }
        if let address = try? sockaddr_in6.inet6(ip6: "::1", port: port) {
            let v6 = HTTPServer(address: address, timeout: answerSeconds, logger: DisabledLogger.disabled, handler: api)
            let runV6 = Task { try await v6.run() }
            if (try? await v6.waitUntilListening(timeout: 5)) != nil { servers.withLock { $0.append(v6) } } else { runV6.cancel() }
        }
        return "http://127.0.0.1:\(port)/?token=\(api.token)"
    }

    /// Stops listening and removes the scratch folder.
    public func stop() async {
        for server in servers.withLock({ s in defer { s = [] }; return s }) { await server.stop(timeout: 1) }
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
