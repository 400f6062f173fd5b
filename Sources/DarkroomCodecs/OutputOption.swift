/// One setting of how an output file is encoded (`quality`, `bit_depth`, `lossless`, …): its
/// name, which formats take it, what values it takes there and its default. The table of them,
/// ``all``, is the one place these are declared: the config reader, `darkroom process`'s flags,
/// the format help and `docs/output-options.md` are all generated from it.
///
/// How to add an output option:
/// 1. Add one entry to the table in `OutputOptions.swift` (name as written in YAML, snake_case;
///    a one-line summary; one ``Form`` per group of formats that read it the same way, with its
///    ``Kind`` and default) and list it in ``all``. The config key, the `--flag` of
///    `darkroom process` (underscores become dashes; a boolean is `--name` / `--no-name`), the
///    refusal where a format has no use for it, the help and the docs follow from that entry.
/// 2. Plumb it into the encoder: read it in `ImageEncoder` (through ``OutputEncoding``'s typed
///    accessor, or `encoding.integer(.name)`) and hand it to the C writer.
/// 3. Run `darkroom formats --markdown > docs/output-options.md` (a test fails until the docs
///    are current).
/// Keys an option cannot be written beside (`distance` and `quality`) are its ``Exclusion``, in
/// the same entry: the config reader, `darkroom process` and the docs follow from it. Another
/// rule between two options (TIFF `compression: jpeg` holds 8-bit samples only) is checked in
/// the config reader (`OutputEncodingDecoding.swift`), beside the others.
public struct OutputOption: Sendable, Equatable, CustomStringConvertible {
    /// A value as written and as stored in ``OutputEncoding``.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        case integer(Int)
        case number(Double)
        case boolean(Bool)
        case word(String)

        public var description: String {
            switch self {
            case .integer(let n): String(n)
            case .number(let x): x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
            case .boolean(let b): String(b)
            case .word(let w): w
            }
        }

        public var integer: Int? { if case .integer(let n) = self { n } else { nil } }
        public var number: Double? {
            switch self {
            case .number(let x): x
            case .integer(let n): Double(n)
            default: nil
            }
        }
        public var boolean: Bool? { if case .boolean(let b) = self { b } else { nil } }
        public var word: String? { if case .word(let w) = self { w } else { nil } }
    }

    /// What values an option takes.
    public enum Kind: Sendable, Equatable {
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// One of a few whole numbers (bit depths).
        case integerChoice([Int])
        /// A number in the range, fractions allowed.
        case number(ClosedRange<Double>)
        case boolean
        /// One word out of the list.
        case choice([String])

        /// The allowed values as the help writes them: `1–100`, `8|16`, `auto|420|444`.
        public var range: String {
            switch self {
            case .integer(let r): "\(r.lowerBound)–\(r.upperBound)"
            case .integerChoice(let values): values.map(String.init).joined(separator: "|")
            case .number(let r): "\(Value.number(r.lowerBound))–\(Value.number(r.upperBound))"
            case .boolean: ""
            case .choice(let words): words.joined(separator: "|")
            }
        }

        /// The allowed values as a sentence ends: `from 1 to 100`, `8 or 16`, `keep, strip or copyright`.
        public var allowed: String {
            func list(_ items: [String]) -> String {
                items.count == 1 ? items[0] : items.dropLast().joined(separator: ", ") + " or " + items.last!
            }
            switch self {
            case .integer(let r): return "from \(r.lowerBound) to \(r.upperBound)"
            case .integerChoice(let values): return list(values.map(String.init))
            case .number(let r): return "from \(Value.number(r.lowerBound)) to \(Value.number(r.upperBound))"
            case .boolean: return "true or false"
            case .choice(let words): return list(words)
            }
        }

        /// Whether `value` is one of this kind's values.
        public func holds(_ value: Value) -> Bool { parse(value.description) == value }

        /// `text` read as this kind (words in any case), or nil when it is not one of its values.
        public func parse(_ text: String) -> Value? {
            let t = text.lowercased()
            switch self {
            case .integer(let r):
                guard let n = Int(t.replacingOccurrences(of: "_", with: "")), r.contains(n) else { return nil }
                return .integer(n)
            case .integerChoice(let values):
                guard let n = Int(t), values.contains(n) else { return nil }
                return .integer(n)
            case .number(let r):
                guard let x = Double(t.replacingOccurrences(of: "_", with: "")), r.contains(x) else { return nil }
                return .number(x)
            case .boolean:
                switch t {
                case "true", "yes", "on": return .boolean(true)
                case "false", "no", "off": return .boolean(false)
                default: return nil
                }
            case .choice(let words):
                return words.contains(t) ? .word(t) : nil
            }
        }
    }

    /// How a group of formats reads the option.
    public struct Form: Sendable, Equatable {
        public var formats: [ImageFormat]
        public var kind: Kind
        /// Nil when the encoder decides (``defaultText`` says how).
        public var defaultValue: Value?
        /// The default as the help writes it.
        public var defaultText: String

        public init(_ formats: [ImageFormat], _ kind: Kind, default value: Value?, defaultText: String? = nil) {
            self.formats = formats
            self.kind = kind
            self.defaultValue = value
            self.defaultText = defaultText ?? value?.description ?? "none"
        }
    }

    /// Keys an output cannot write beside an option (with any value of it, or with one), and why.
    public struct Exclusion: Sendable, Equatable {
        /// The option's value that excludes them; nil: any value.
        public var when: Value?
        /// Other options, or the output's other keys (`color`, `auto_orient`).
        public var keys: [String]
        /// Why, as the error and the docs give it.
        public var reason: String

        public init(when value: Value? = nil, _ keys: [String], reason: String) {
            self.when = value
            self.keys = keys
            self.reason = reason
        }
    }

    /// As written in the config (`bit_depth`).
    public let name: String
    /// One line for the help and the docs.
    public let summary: String
    public let forms: [Form]
    /// Why a format refuses the option, added to the error (`JPEG is always 8-bit`).
    public let refusals: [ImageFormat: String]
    /// The keys it cannot be written beside; nil when it goes with any.
    public let exclusion: Exclusion?

    public init(_ name: String, _ summary: String, _ forms: [Form], refusals: [ImageFormat: String] = [:], excludes exclusion: Exclusion? = nil) {
        self.name = name
        self.summary = summary
        self.forms = forms
        self.refusals = refusals
        self.exclusion = exclusion
    }

    public var description: String { name }

    /// The formats that take it, in the order of its forms.
    public var formats: [ImageFormat] { forms.flatMap(\.formats) }

    /// How `format` reads it; nil when the format has no use for it.
    public func form(for format: ImageFormat) -> Form? { forms.first { $0.formats.contains(format) } }

    /// `darkroom process`'s flag: `--bit-depth`.
    public var flag: String { "--" + name.replacingOccurrences(of: "_", with: "-") }

    /// "lossless applies to webp only; remove it or write format: webp (…)": `format` has no use for it.
    public func refusal(for format: ImageFormat) -> String {
        let names = formats.map(\.rawValue)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        let reason = refusals[format].map { " (\($0))" } ?? ""
        return "\(name) applies to \(list) only; remove it or write format: \(names[0])" + reason
    }

    /// "quality cannot be given with distance: …": why `key` may not be written beside this
    /// option written as `value`; nil when it may.
    public func conflict(with key: String, value: Value) -> String? {
        guard let exclusion, exclusion.keys.contains(key), exclusion.when.map({ $0 == value }) ?? true else { return nil }
        let written = exclusion.when.map { "\(name): \($0)" } ?? name
        return "\(key) cannot be given with \(written): \(exclusion.reason); remove \(key)"
            + (exclusion.when == nil ? " or \(name)" : "")
    }

    /// "Not with quality." / "With true, not with quality, distance, …": the exclusion as the help and the docs write it.
    public var exclusionText: String? {
        guard let exclusion else { return nil }
        let keys = exclusion.keys.count == 1 ? exclusion.keys[0]
            : exclusion.keys.dropLast().joined(separator: ", ") + " or " + exclusion.keys.last!
        return (exclusion.when.map { "With \($0), not with " } ?? "Not with ") + keys + "."
    }

    /// The option named `name` in the table.
    public static func named(_ name: String) -> OutputOption? { all.first { $0.name == name } }

    public static func == (a: OutputOption, b: OutputOption) -> Bool { a.name == b.name }
}
