import ArgumentParser
import DarkroomCodecs
import DarkroomCore

/// `darkroom process`'s output options, one flag per entry of the table (``OutputOption/all``):
/// `--quality 80`, `--bit-depth=16`, `--compression lzw`, `--lossless`, `--no-gps`. Given among
/// the input files, which are what remains.
struct OutputOptionFlags {
    /// The options given, with their text as written (a boolean's is "true" or "false").
    private(set) var given: [(option: OutputOption, text: String)] = []
    private(set) var inputs: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                inputs.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let (flag, inline) = (parts[0], parts.count > 1 ? parts[1] : nil)
            if let option = OutputOption.all.first(where: { $0.flag == flag }) {
                if case .boolean = option.forms[0].kind {
                    given.append((option, inline ?? "true"))
                } else if let text = inline ?? rest.popFirst() {
                    given.append((option, text))
                } else {
                    throw ValidationError("\(flag) needs a value: \(option.forms.map(\.kind.allowed).joined(separator: "; "))")
                }
            } else if let option = OutputOption.all.first(where: { "--no-" + $0.flag.dropFirst(2) == flag }),
                      case .boolean = option.forms[0].kind, inline == nil {
                given.append((option, "false"))
            } else {
                let flags = OutputOption.all.map(\.flag)
                throw ValidationError("unknown option \(flag)" + suggestionText(flag, among: flags))
            }
        }
    }

    /// The encoding of each output, by its format. An option applies to the outputs whose
    /// format takes it, checked as that format reads it; one that no output takes is refused.
    func encodings(for formats: [ImageFormat]) throws -> [OutputEncoding] {
        for (option, _) in given where !formats.contains(where: { option.form(for: $0) != nil }) {
            let names = option.formats.map(\.rawValue)
            throw ValidationError("\(option.flag) applies to \(names.joined(separator: ", ")) only, and no output here is "
                                  + (names.count == 1 ? "one" : "any of them"))
        }
        return try formats.map { format in
            var encoding = OutputEncoding()
            for (option, text) in given {
                guard let form = option.form(for: format) else { continue }
                guard let value = form.kind.parse(text) else {
                    let scope = option.forms.count > 1 || form.formats.count < ImageFormat.writableFormats.count ? " for \(format.rawValue)" : ""
                    throw ValidationError("\(option.flag) must be \(form.kind.allowed)\(scope), got \(text)")
                }
                encoding[option] = value
            }
            for (option, _) in given {
                guard let value = encoding[option] else { continue }
                for (other, _) in given where encoding[other] != nil {
                    if let problem = option.conflict(with: other.name, value: value) { throw ValidationError(problem) }
                }
            }
            return encoding
        }
    }

    /// The flags, for `darkroom process --help`: each with what it does, then per group of
    /// formats the values and the default, wrapped by ``TextWrap`` (the help does not indent what
    /// it wraps itself).
    static var help: String {
        var lines = ["Output options (each for the formats named; `darkroom formats` lists them):"]
        for option in OutputOption.all {
            let isBoolean = option.forms[0].kind == .boolean
            let spelling = isBoolean ? (option.forms[0].defaultValue == .boolean(true) ? "--no-" + option.flag.dropFirst(2) : option.flag)
                                     : option.flag + " <value>"
            let forms = option.forms.map { form in
                let formats = form.formats == ImageFormat.writableFormats ? "every format" : form.formats.map(\.rawValue).joined(separator: ", ")
                return formats + ": " + (isBoolean ? "" : form.kind.range + ", ") + "default \(form.defaultText)"
            }
            lines += TextWrap.lines("  " + spelling.padding(toLength: 24, withPad: " ", startingAt: 0),
                             option.summary + " " + forms.joined(separator: "; ") + "." + (option.exclusionText.map { " " + $0 } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}
