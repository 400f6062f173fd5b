import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import Foundation

/// The config the preview was started with: its watches and outputs, one output's chain
/// opened as a draft, and saved back (only if the file is as it was when opened, only when
/// `check` accepts the result, only that chain's lines replaced, the old file kept as FILE~).
struct ConfigSession: Sendable {
    /// Absolute path of the config file.
    let path: String
    let registry: FilterRegistry
    let check: ChainCheck

    var folder: String { (path as NSString).deletingLastPathComponent }

    /// The config as it is now on disk, checked as `check` does.
    func load() throws(ConfigError) -> DaemonConfig {
        try ConfigLoader.load(path: path, registry: registry, assets: check.assets)
    }

    /// An output's chain as it stands in the file, and the file's SHA-256 (the save's guard).
    struct Opened: Codable, Sendable {
        var watch: Int
        var output: Int
        var chain: ChainDraft
        var sha256: String
    }

    enum Failure: Error {
        /// The file changed on disk since it was opened.
        case changed
        /// The config cannot be read, or the chain cannot be placed in it.
        case config(String)
        /// `check` refuses the config with the new chain.
        case invalid([ChainProblem])
    }

    func open(watch: Int, output: Int) throws(Failure) -> Opened {
        let (text, sha) = try read()
        do throws(ConfigError) {
            let found = try ConfigChainText(text: text, watch: watch, output: output)
            return Opened(watch: watch, output: output, chain: ChainDraft(configSteps: found.steps, registry: registry), sha256: sha)
        } catch {
            throw .config(error.description)
        }
    }

    /// The config text with `draft` as the chain of `watches[watch].outputs[output]`.
    func placed(_ draft: ChainDraft, watch: Int, output: Int, in text: String) throws(Failure) -> ChainCheck.Placed {
        let found: ConfigChainText
        do throws(ConfigError) { found = try ConfigChainText(text: text, watch: watch, output: output) } catch { throw .config(error.description) }
        let steps: [String]
        do throws(ParameterError) { steps = try draft.yamlSteps(registry: registry) } catch { throw .invalid([ChainProblem(step: nil, parameter: nil, message: error.description)]) }
        return ChainCheck.Placed(text: found.replacing(in: text, with: steps), fileName: path, baseDirectory: folder,
                                 watch: watch, output: output)
    }

    /// Writes `draft` into the file if it still has the hash `sha256`; returns the backup's path.
    func save(_ draft: ChainDraft, watch: Int, output: Int, sha256: String) throws(Failure) -> String {
        let (text, sha) = try read()
        guard sha == sha256 else { throw .changed }
        let placed = try placed(draft, watch: watch, output: output, in: text)
        let problems = check.problems(in: placed, draft: draft)
        guard problems.isEmpty else { throw .invalid(problems) }
        let backup = path + "~"
        do {
            try AtomicFile.write(Array(text.utf8), to: backup)
            try AtomicFile.write(Array(placed.text.utf8), to: path)
        } catch {
            throw .config("cannot write \(path): \(error)")
        }
        return backup
    }

    private func read() throws(Failure) -> (String, String) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .config("cannot read \(path)") }
        return (String(decoding: data, as: UTF8.self), SHA256.hex(Array(data)))
    }
}
