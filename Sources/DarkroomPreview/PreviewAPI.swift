import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import DarkroomDrawing
import FlyingFox
import Foundation

/// The preview's HTTP API and page. Every request passes ``AccessGuard`` first; bodies and
/// answers are JSON, pictures PNG.
final class PreviewAPI: HTTPHandler, Sendable {
    let token = AccessGuard.newToken()
    let requestedPort: UInt16
    private let port = Locked<UInt16>(0)
    let scope: FileScope
    let renderer: PreviewRenderer
    let check: ChainCheck
    let session: ConfigSession?
    let initial: (watch: Int, output: Int)?
    /// Where file parameters' relative paths start: the config's folder, else the first image's.
    let assetBase: String
    let registry = FilterRegistry.shipped

    init(scope: FileScope, renderer: PreviewRenderer, check: ChainCheck, session: ConfigSession?,
         initial: (watch: Int, output: Int)?, assetBase: String, port: UInt16) {
        (self.scope, self.renderer, self.check, self.session, self.initial, self.assetBase, self.requestedPort)
            = (scope, renderer, check, session, initial, assetBase, port)
    }

    func setPort(_ p: UInt16) { port.withLock { $0 = p } }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let gate = AccessGuard(token: token, port: port.current)
        switch gate.verdict(host: request.headers[.host], queryToken: request.query["token"],
                            headerToken: request.headers[HTTPHeader("X-Darkroom-Token")]) {
        case .wrongHost(let host):
            return Self.text(.forbidden, "refused: Host \(host ?? "(none)") is not this server's loopback address; open http://127.0.0.1:\(port.current)/")
        case .noToken:
            return Self.text(.forbidden, "forbidden: this page needs the token darkroom preview printed (…/?token=…)")
        case .allowed:
            break
        }
        do {
            return try await route(request)
        } catch let refusal as FileScope.Refusal {
            return Self.text(.forbidden, refusal.description)
        } catch let bad as BadRequest {
            return Self.text(.badRequest, bad.message)
        }
    }

    struct BadRequest: Error { var message: String }

    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        switch (request.method, request.path) {
        case (.GET, "/"): return Self.bytes(Data(PreviewPage.html.utf8), type: "text/html; charset=utf-8")
        case (.GET, "/api/filters"):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Self.bytes(try encoder.encode(registry.descriptors), type: "application/json")
        case (.GET, "/api/state"): return Self.json(state())
        case (.GET, "/api/original"): return try original(request)
        case (.GET, "/api/files"): return Self.json(["files": try files(request)])
        case (.POST, "/api/check"):
            let body = try await Self.decode(CheckRequest.self, request)
            return Self.json(checked(body.chain))
        case (.POST, "/api/render"): return try await render(try await Self.decode(RenderRequest.self, request))
        case (.GET, "/api/progress"):
            guard let page = request.query["page"] else { throw BadRequest(message: "give page=") }
            guard let p = renderer.progress(page: page) else { return Self.json(Progress()) }
            return Self.json(Progress(sequence: p.sequence, strips: p.strips, of: p.of))
        case (.GET, "/api/picture"):
            guard let page = request.query["page"], let id = Int(request.query["id"] ?? ""),
                  let png = renderer.picture(page: page, id: id) else { return Self.text(.notFound, "no such picture (a newer render replaced it)") }
            return Self.bytes(png, type: "image/png")
        case (.GET, "/api/config/chain"): return try openChain(request)
        case (.POST, "/api/config/chain"): return try saveChain(try await Self.decode(SaveRequest.self, request))
        default: return Self.text(.notFound, "no such page: \(request.path)")
        }
    }

    // MARK: state and files

    private struct State: Encodable {
        struct Image: Encodable { var root: String; var path: String; var label: String }
        struct Watch: Encodable { var name: String; var outputs: [String] }
        var images: [Image]
        var config: String?
        var watches: [Watch]
        var initial: [String: Int]?
        var assets: [String]
        var seed: String
        var limits: [String: Double]
    }

    /// The files offered as images: every extension of every format darkroom reads.
    private static let imageExtensions = Set(ImageFormat.allCases.flatMap(\.fileExtensions))
    private static let assetExtensions: Set<String> = imageExtensions.union(["cube", "ttf", "otf", "ttc"])

    private func state() -> State {
        var images = scope.images.enumerated().map { State.Image(root: "images", path: String($0.offset), label: ($0.element as NSString).lastPathComponent) }
        for root in scope.roots where root.id != "config" {
            images += scope.files(in: root.id, extensions: Self.imageExtensions, depth: 0).map { State.Image(root: root.id, path: $0, label: "\(root.label): \($0)") }
        }
        var watches = [State.Watch]()
        if let session, let config = try? session.load() {
            watches = config.watches.map { State.Watch(name: $0.name, outputs: $0.outputs.map(\.pathTemplate)) }
        }
        let limits = renderer.limits
        return State(images: images, config: session?.path, watches: watches,
                     initial: initial.map { ["watch": $0.watch, "output": $0.output] },
                     assets: assetFiles(), seed: String(UInt64.random(in: 1...UInt64(Int64.max))),
                     limits: ["max_pixels": Double(limits.maxPixels), "max_seconds": limits.maxSeconds,
                              "memory_budget": Double(renderer.budget.total)])
    }

    /// Files a file parameter can name, relative to ``assetBase``.
    private func assetFiles() -> [String] {
        FileScope.list(assetBase, prefix: "", extensions: Self.assetExtensions, depth: 1, inside: assetBase)
            .filter { scope.allows(assetBase + "/" + $0) }
    }

    private func files(_ request: HTTPRequest) throws -> [String] {
        guard let root = request.query["root"] else { throw BadRequest(message: "give root=") }
        return scope.files(in: root, extensions: Self.imageExtensions)
    }

    private func original(_ request: HTTPRequest) throws -> HTTPResponse {
        let path = try scope.resolve(root: request.query["root"] ?? "", path: request.query["path"] ?? "")
        guard let data = FileManager.default.contents(atPath: path) else { throw FileScope.Refusal(description: "cannot read \(path)") }
        // The page opens an image before editing: its screen copy is then ready for the first edit.
        renderer.prepareScreenCopy(of: path)
        let type = switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "avif": "image/avif"
        default: "application/octet-stream"
        }
        return Self.bytes(data, type: type)
    }

    // MARK: chains

    struct CheckRequest: Decodable { var chain: ChainDraft }

    struct Checked: Encodable {
        var problems: [ChainProblem]
        var syntax: String
        var yaml: String
    }

    /// The draft checked as `check` would, with its `process` syntax and its YAML.
    func checked(_ draft: ChainDraft) -> Checked {
        var problems = fileProblems(draft)
        var yamlLines = [String]()
        for (i, step) in draft.steps.enumerated() where step.enabled {
            do throws(ParameterError) { yamlLines += try ChainDraft(steps: [step]).yamlSteps(registry: registry) } catch {
                problems.append(ChainProblem(step: i, parameter: Self.parameterNamed(in: error.description, step: step), message: error.description))
            }
        }
        if problems.isEmpty {
            let placed = ChainCheck.standalone(steps: yamlLines, scratch: renderer.scratch, baseDirectory: assetBase)
            problems = check.problems(in: placed, draft: draft)
        }
        let yaml = "chain:\n" + yamlLines.map { "  - " + $0 }.joined(separator: "\n") + "\n"
        return Checked(problems: problems, syntax: draft.processSyntax(registry: registry), yaml: yaml)
    }

    /// A file parameter may name only files the preview may read.
    private func fileProblems(_ draft: ChainDraft) -> [ChainProblem] {
        var out = [ChainProblem]()
        for (i, step) in draft.steps.enumerated() where step.enabled {
            guard let descriptor = registry.type(named: step.name)?.descriptor else { continue }
            for p in step.parameters where descriptor.parameter(named: p.name)?.kind.isFile == true {
                do throws(FileScope.Refusal) {
                    let real = try scope.resolve(relative: p.value, in: assetBase)
                    guard scope.allows(real) else { throw FileScope.Refusal(description: "\(p.value) is outside the folders the preview reads") }
                } catch {
                    out.append(ChainProblem(step: i, parameter: p.name, message: "\(step.name).\(p.name): \(error.description)"))
                }
            }
        }
        return out
    }

    /// `sepia.intensity: …` → `intensity` when the step has that parameter.
    private static func parameterNamed(in message: String, step: ChainDraft.Step) -> String? {
        guard let colon = message.range(of: ": ") else { return nil }
        let place = message[..<colon.lowerBound]
        guard let dot = place.firstIndex(of: ".") else { return nil }
        let name = String(place[place.index(after: dot)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        return step.parameters.contains { $0.name == name } ? name : nil
    }

    struct RenderRequest: Decodable {
        var page: String
        var sequence: Int
        var root: String
        var path: String
        var chain: ChainDraft
        var seed: String
        /// A quick render on the screen copy, pixel parameters scaled to it, before the exact one.
        var approximate: Bool?
        /// For the exact render: run the edit's approximate render first (starting it if its
        /// own request has not come yet), not beside it, so that the approximate picture is
        /// not slowed by the exact render it precedes, nor the exact one by it.
        var approximateFirst: Bool?
    }

    /// The newest render of a page not yet ended, in output strips (nothing when none is).
    private struct Progress: Encodable {
        var sequence: Int?
        var strips: Int?
        var of: Int?
    }

    /// Output strips a superseded render had written when it stopped.
    private struct Stopped: Encodable {
        var strips: Int
        var of: Int
    }

    private struct Rendered: Encodable {
        var approximate = false
        var id: Int?
        var seconds: Double?
        var superseded: Bool
        var stopped: Stopped?
        var problems: [ChainProblem]
        var syntax: String
        var yaml: String
        var report: String?
        var status: String?
    }

    private func render(_ r: RenderRequest) async throws -> HTTPResponse {
        let input = try scope.resolve(root: r.root, path: r.path)
        guard let seed = UInt64(r.seed) else { throw BadRequest(message: "seed: expected a whole number from 0 to 18446744073709551615, got \"\(r.seed)\"") }
        let c = checked(r.chain)
        var answer = Rendered(superseded: false, problems: c.problems, syntax: c.syntax, yaml: c.yaml)
        guard c.problems.isEmpty, r.chain.steps.contains(where: \.enabled) else { return Self.json(answer) }
        let quick = r.approximate == true || r.approximateFirst == true ? approximateRender(r, input: input, seed: seed) : nil
        let outcome: PreviewRenderer.Outcome
        if r.approximate == true {
            guard let quick else { return Self.json(answer) }
            answer.approximate = true
            outcome = await quick.value
        } else {
            outcome = await renderer.render(page: r.page, sequence: r.sequence, input: input,
                                            syntax: processSyntax(r.chain, scaledBy: 1), seed: seed, after: quick)
        }
        switch outcome {
        case .superseded(let stopped):
            answer.superseded = true
            answer.stopped = stopped.map { Stopped(strips: $0.strips, of: $0.of) }
        case .invalid(let message):
            answer.problems = [ChainProblem(step: nil, parameter: nil, message: message)]
        case .rendered(let id, let report, let seconds):
            answer.id = report.status == .ok ? id : nil
            answer.seconds = seconds
            answer.status = report.status.rawValue
            answer.report = String(decoding: (try? report.jsonData()) ?? Data(), as: UTF8.self)
        }
        return Self.json(answer)
    }

    /// Edit `r`'s approximate render: on the screen copy of `input`, pixel parameters scaled
    /// to it, shared by the edit's requests that ask for it (``PreviewRenderer/once(page:sequence:render:)``).
    /// Nil when the input has no screen copy (the exact render then says why).
    private func approximateRender(_ r: RenderRequest, input: String, seed: UInt64) -> Task<PreviewRenderer.Outcome, Never>? {
        guard let copy = renderer.screenCopy(of: input) else { return nil }
        let page = r.page + "~approximate", sequence = r.sequence, renderer = renderer
        let syntax = processSyntax(r.chain, scaledBy: copy.factor)
        return renderer.once(page: page, sequence: sequence) {
            await renderer.render(page: page, sequence: sequence, input: copy.path, syntax: syntax, seed: seed, quick: true)
        }
    }

    /// `chain` in `process` syntax, file parameters made absolute (the scratch render runs
    /// wherever the server started) and pixel values times `factor`.
    private func processSyntax(_ chain: ChainDraft, scaledBy factor: Double) -> String {
        chain.processSyntax(registry: registry) { _, parameter, value in
            if parameter.kind.isFile { return (try? self.scope.resolve(relative: value, in: self.assetBase)) ?? value }
            return factor == 1 ? value : Self.scaled(value, parameter: parameter, by: factor)
        }
    }

    /// A pixel value (a length without `%`, a whole number in px) times `factor`, for a render
    /// on the screen copy; anything else as it is.
    static func scaled(_ value: String, parameter: ParameterDescriptor, by factor: Double) -> String {
        let isPixels = parameter.kind == .length || (parameter.kind == .integer && parameter.unit == "px")
        let number = value.hasSuffix("px") ? String(value.dropLast(2)) : value
        guard isPixels, let v = Double(number) else { return value }
        return parameter.kind == .integer ? String(max(1, Int((v * factor).rounded()))) : String(v * factor)
    }

    // MARK: config

    private func openChain(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let session else { return Self.text(.notFound, "darkroom preview was started without --config") }
        guard let w = Int(request.query["watch"] ?? ""), let o = Int(request.query["output"] ?? "") else {
            throw BadRequest(message: "give watch= and output= (numbers from 0)")
        }
        do throws(ConfigSession.Failure) { return Self.json(try session.open(watch: w, output: o)) } catch {
            return Self.failure(error)
        }
    }

    struct SaveRequest: Decodable {
        var watch: Int
        var output: Int
        var chain: ChainDraft
        var sha256: String
    }

    private func saveChain(_ r: SaveRequest) throws -> HTTPResponse {
        guard let session else { return Self.text(.notFound, "darkroom preview was started without --config") }
        let problems = fileProblems(r.chain)
        guard problems.isEmpty else { return Self.json(["problems": problems], status: .unprocessableContent) }
        do throws(ConfigSession.Failure) {
            let backup = try session.save(r.chain, watch: r.watch, output: r.output, sha256: r.sha256)
            let reopened = try session.open(watch: r.watch, output: r.output)
            return Self.json(Saved(saved: session.path, backup: backup, sha256: reopened.sha256,
                                   reload: "the running daemon reads it on reload: systemctl reload darkroom (or kill -HUP its pid)"))
        } catch {
            return Self.failure(error)
        }
    }

    private struct Saved: Encodable { var saved: String; var backup: String; var sha256: String; var reload: String }

    private static func failure(_ error: ConfigSession.Failure) -> HTTPResponse {
        switch error {
        case .changed:
            text(.conflict, "the config changed on disk since the chain was opened.")
        case .config(let message):
            json(["problems": [ChainProblem(step: nil, parameter: nil, message: message)]], status: .unprocessableContent)
        case .invalid(let problems):
            json(["problems": problems], status: .unprocessableContent)
        }
    }

    // MARK: answers

    /// Chains are small; a larger body is refused before it is read.
    private static let maximumBody = 4 << 20

    private static func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) async throws -> T {
        if let length = Int(request.headers[.contentLength] ?? ""), length > maximumBody {
            throw BadRequest(message: "the request body has \(length) bytes, more than \(maximumBody)")
        }
        let data = try await request.bodyData
        guard data.count <= maximumBody else { throw BadRequest(message: "the request body is larger than \(maximumBody) bytes") }
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw BadRequest(message: "the request body is not the JSON expected: \(error)")
        }
    }

    static func json<T: Encodable>(_ value: T, status: HTTPStatusCode = .ok) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return bytes((try? encoder.encode(value)) ?? Data("{}".utf8), type: "application/json", status: status)
    }

    static func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        bytes(Data((message + "\n").utf8), type: "text/plain; charset=utf-8", status: status)
    }

    static func bytes(_ data: Data, type: String, status: HTTPStatusCode = .ok) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: type, .cacheControl: "no-store",
                                                   HTTPHeader("Referrer-Policy"): "no-referrer",
                                                   HTTPHeader("X-Content-Type-Options"): "nosniff",
                                                   HTTPHeader("Content-Security-Policy"): "default-src 'self' blob: data: 'unsafe-inline'; connect-src 'self'"],
                     body: HTTPBodySequence(data: data, suggestedBufferSize: sendBuffer))
    }

    /// Bytes handed to the socket at a time: FlyingFox's default (4 KiB) sends a full-size PNG
    /// in thousands of asynchronous writes.
    private static let sendBuffer = 1 << 20
}
