import ArgumentParser
import DarkroomCodecs
import DarkroomConfig

/// `darkroom formats`: the formats (``ImageFormat/facts``) and their output options
/// (``OutputOption/all``), generated from the two tables; `--markdown` prints
/// `docs/output-options.md`.
struct FormatsCommand: ReferenceCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the image formats and each output option's formats, values and default."
    )

    @Flag(help: "Print the formats and output options as Markdown (docs/output-options.md).")
    var markdown = false

    @Flag(help: "Print JSON: the formats and the output options.")
    var json = false

    static func text() -> String { FormatHelpText.render() }

    static var tables: [ReferenceTable] {
        var formats = ReferenceTable(name: "formats", columns: ["Format", "Name", "Extensions", "Written", "Animated"],
                                     keys: ["format", "name", "extensions", "written", "animated"])
        for format in ImageFormat.allCases {
            formats.rows.append([format.displayName, "`\(format.rawValue)`", format.fileExtensions.map { "`.\($0)`" }.joined(separator: ", "),
                                 format.isWritable ? "yes" : "no (read only)", format.canAnimate ? "yes (frame by frame)" : "no"])
        }
        var options = ReferenceTable(name: "options", columns: ["Option", "Flag", "Formats", "Values", "Default", "What it does"],
                                     keys: ["option", "flag", "formats", "values", "default", "summary"])
        for option in OutputOption.all {
            for (i, form) in option.forms.enumerated() {
                let formats = form.formats == ImageFormat.writableFormats ? "all" : form.formats.map(\.rawValue).joined(separator: ", ")
                let flag = form.kind == .boolean && form.defaultValue == .boolean(true) ? "--no-" + option.flag.dropFirst(2) : option.flag
                options.rows.append([i == 0 ? "`\(option.name)`" : "", i == 0 ? "`\(flag)`" : "", formats, values(form.kind),
                                     form.defaultText, i == 0 ? option.summary + (option.exclusionText.map { " " + $0 } ?? "") : ""])
            }
        }
        return [formats, options]
    }

    static func markdownText() -> String {
        let tables = tables
        var lines = ReferenceTable.header("Formats and output options", command: "formats",
                                          source: "the tables in Sources/DarkroomCodecs/ImageFormat.swift and OutputOptions.swift")
        lines += [
            "darkroom reads every format below by its content, whatever a file's name says (a report warns",
            "when the name says another format), and writes those marked written: an output's format is",
            "`format:` (its name) or its path's extension. The name is also what a report's `input.format` holds.",
            "`darkroom formats --json` prints the tables of this page for scripts.",
            "",
        ]
        lines += tables[0].markdown
        let globs: [String] = WatchConfig.defaultInclude.map { "`\($0)`" }
        lines += ["", "A watch's default `include` is every extension above: " + globs.joined(separator: " ") + ".", ""]
        lines += [
            "## Output options",
            "",
            "Each output of a watch (`outputs:`) takes these keys beside `path`, `format` and `chain`, and",
            "`darkroom process` takes them as flags (`--bit-depth 16`, `--lossless`, `--no-gps`). A key",
            "the output's format has no use for is an error that names the formats it applies to.",
            "",
        ]
        lines += tables[1].markdown
        lines += ["", "## By format", ""]
        for format in ImageFormat.writableFormats {
            let names = OutputOption.all.filter { $0.form(for: format) != nil }.map { "`\($0.name)`" }
            lines.append("- **\(format.rawValue)** (`." + format.fileExtensions.joined(separator: "`, `.") + "`): "
                         + names.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    private static func values(_ kind: OutputOption.Kind) -> String {
        switch kind {
        case .integer(let r): "\(r.lowerBound)–\(r.upperBound)"
        case .integerChoice(let values): values.map { "`\($0)`" }.joined(separator: ", ")
        case .number(let r): "\(OutputOption.Value.number(r.lowerBound))–\(OutputOption.Value.number(r.upperBound))"
        case .boolean: "`true`, `false`"
        case .choice(let words): words.map { "`\($0)`" }.joined(separator: ", ")
        }
    }
}
