import DarkroomConfig
import DarkroomCore
import Foundation

/// A problem with a draft, in the words `darkroom check` prints, tied to the page step and
/// parameter it is about (nil when it concerns the whole step or chain).
public struct ChainProblem: Codable, Sendable, Equatable {
    public var step: Int?
    public var parameter: String?
    public var message: String
}

/// Checks a draft exactly as `darkroom check` checks a config: the chain is written into a
/// config (the real one in place of the chain being edited, or a minimal one) and read by
/// ``ConfigLoader``; each diagnostic about the chain is mapped back to its step and parameter.
struct ChainCheck: Sendable {
    let registry: FilterRegistry
    let assets: any AssetResolver

    /// The config text with `draft` in place of `watches[watch].outputs[output].chain`, or the
    /// problems that kept it from being written at all.
    struct Placed {
        var text: String
        var fileName: String
        var baseDirectory: String
        var watch: Int
        var output: Int
    }

    /// Problems found in `placed` (empty: `check` accepts it).
    func problems(in placed: Placed, draft: ChainDraft) -> [ChainProblem] {
        do throws(ConfigError) {
            _ = try ConfigLoader.parse(text: placed.text, fileName: placed.fileName, baseDirectory: placed.baseDirectory,
                                       registry: registry, assets: assets)
            return []
        } catch {
            return error.diagnostics.map { problem(for: $0, placed: placed, draft: draft) }
        }
    }

    /// `watches[0].outputs[0].chain[1] sepia.intensity: …` → step 1's (page index) `intensity`.
    private func problem(for diagnostic: ConfigDiagnostic, placed: Placed, draft: ChainDraft) -> ChainProblem {
        let prefix = "watches[\(placed.watch)].outputs[\(placed.output)].chain["
        let message = diagnostic.message
        guard let start = message.range(of: prefix) else {
            return ChainProblem(step: nil, parameter: nil, message: diagnostic.description)
        }
        let rest = message[start.upperBound...]
        guard let close = rest.firstIndex(of: "]"), let position = Int(rest[..<close]) else {
            return ChainProblem(step: nil, parameter: nil, message: message)
        }
        let enabled = draft.enabledIndices
        let step = enabled.indices.contains(position) ? enabled[position] : nil
        // After the index: ` name.parameter…: message` when a parameter is meant.
        var parameter: String?
        let after = rest[rest.index(after: close)...]
        if after.hasPrefix(" "), let colon = after.range(of: ": ") {
            let place = after[after.index(after: after.startIndex)..<colon.lowerBound]
            if let dot = place.firstIndex(of: ".") {
                let name = place[place.index(after: dot)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty { parameter = String(name) }
            }
        }
        return ChainProblem(step: step, parameter: parameter, message: message)
    }

    /// A minimal config holding `steps` as its one output's chain: for checking a chain edited
    /// without `--config`. Its folders live in `scratch`; `baseDirectory` is where relative
    /// file parameters are found.
    static func standalone(steps: [String], scratch: String, baseDirectory: String) -> Placed {
        let inbox = scratch + "/check-inbox", out = scratch + "/check-out"
        for folder in [inbox, out] { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var lines = ["watches:", "  - name: preview", "    path: \(YAMLText.scalar(inbox))", "    outputs:",
                     "      - path: \(YAMLText.scalar(out + "/{stem}.png"))", "        chain:"]
        lines += steps.map { "          - " + $0 }
        if steps.isEmpty { lines[lines.count - 1] += " []" }
        return Placed(text: lines.joined(separator: "\n") + "\n", fileName: "chain", baseDirectory: baseDirectory, watch: 0, output: 0)
    }
}
