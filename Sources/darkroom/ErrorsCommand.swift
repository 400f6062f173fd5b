import ArgumentParser
import DarkroomCodecs

/// `darkroom errors`: the codes a failed file's report can carry, generated from ``ErrorCode``;
/// `--markdown` prints `docs/error-codes.md`.
struct ErrorsCommand: ReferenceCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors",
        abstract: "List the error codes a report can carry, what each means and what to do."
    )

    @Flag(help: "Print the error codes as Markdown (docs/error-codes.md).")
    var markdown = false

    @Flag(help: "Print JSON: each code with what it means and what to do.")
    var json = false

    static func text() -> String {
        var lines = ["A failed file's report holds \"error\": {\"code\", \"message\"}; the codes:"]
        for code in ErrorCode.allCases {
            lines += TextWrap.lines("  " + code.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0), code.meaning)
            lines += TextWrap.lines(String(repeating: " ", count: 17) + "→ ", code.remedy)
        }
        return lines.joined(separator: "\n")
    }

    static var tables: [ReferenceTable] {
        [ReferenceTable(name: "codes", columns: ["Code", "What happened", "What to do"], keys: ["code", "meaning", "remedy"],
                        rows: ErrorCode.allCases.map { ["`\($0.rawValue)`", $0.meaning, $0.remedy] })]
    }

    static func markdownText() -> String {
        (ReferenceTable.header("Error codes", command: "errors", source: "Sources/DarkroomCodecs/ErrorCode.swift") + [
            "A file that fails gets a report with `\"status\": \"failed\"` and `\"error\": {\"code\": …, \"message\": …}`.",
            "The code is one of these and never changes between versions, so scripts may match on it; the",
            "message says what exactly went wrong, naming the file. `darkroom errors --json` prints the table for scripts.",
            "",
        ] + tables[0].markdown).joined(separator: "\n")
    }
}
