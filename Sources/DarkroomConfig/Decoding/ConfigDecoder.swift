import DarkroomCore

/// Turns the YAML tree into a ``DaemonConfig``, recording every problem instead of stopping at
/// the first, so one run of `darkroom check` shows them all.
///
/// Each reader returns nil for a value it could not use (after logging why); the caller then
/// goes on with the default so that later fields are still checked.
final class ConfigDecoder {
    let file: String
    let baseDirectory: String
    let registry: FilterRegistry
    /// Loads the files filter parameters name, so a missing or broken one is an error here;
    /// held to the config's `limits:` once they are read.
    var assets: any AssetResolver
    private(set) var diagnostics: [ConfigDiagnostic] = []
    private(set) var warnings: [ConfigDiagnostic] = []

    init(file: String, baseDirectory: String, registry: FilterRegistry, assets: any AssetResolver) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.registry = registry
        self.assets = assets
    }

    /// Records `path: message` at `mark`.
    func error(_ mark: SourceMark, _ path: String, _ message: String) {
        let text = path.isEmpty ? message : "\(path): \(message)"
        diagnostics.append(ConfigDiagnostic(file: file, line: mark.line, column: mark.column, message: text))
    }

    /// Records `warning: path: message` at `mark`: valid, but likely not what was meant.
    func warn(_ mark: SourceMark, _ path: String, _ message: String) {
        warnings.append(ConfigDiagnostic(file: file, line: mark.line, column: mark.column,
                                         message: "warning: " + (path.isEmpty ? message : "\(path): \(message)")))
    }

    /// `limits` + `max_pixels` → `limits.max_pixels`.
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The entries of a mapping whose keys must come from `known`; unknown keys are reported
    /// with the nearest known one, repeated keys with where the first stands.
    func fields(_ node: YAMLNode, path: String, known: [String]) -> Fields? {
        guard case .mapping(let pairs) = node.content else {
            error(node.mark, path, "expected a mapping of " + known.joined(separator: ", ") + ", got \(node.shortDescription)")
            return nil
        }
        var values = [String: YAMLNode](), keyMarks = [String: SourceMark]()
        for pair in pairs {
            guard let key = pair.key.text else {
                error(pair.key.mark, path, "expected a key (one of " + known.joined(separator: ", ") + "), got \(pair.key.shortDescription)")
                continue
            }
            guard known.contains(key) else {
                error(pair.key.mark, Self.join(path, key), "unknown key" + suggestionText(key, among: known))
                continue
            }
            if let first = keyMarks[key] {
                error(pair.key.mark, Self.join(path, key), "given twice (first at line \(first.line))")
                continue
            }
            values[key] = pair.value
            keyMarks[key] = pair.key.mark
        }
        return Fields(mark: node.mark, path: path, values: values)
    }

    /// A value that must be given; nil (and an error at the mapping) when it is missing.
    func required(_ fields: Fields, _ key: String, _ expectation: String) -> YAMLNode? {
        guard let node = fields.values[key] else {
            error(fields.mark, fields.path, "missing \"\(key)\": \(expectation)")
            return nil
        }
        return node
    }

    /// Reads `key` with `read` when it is given and not null, else returns `fallback`.
    func optional<T>(_ fields: Fields, _ key: String, default fallback: T,
                     _ read: (YAMLNode, String) -> T?) -> T {
        guard let node = fields[key] else { return fallback }
        return read(node, fields.path(key)) ?? fallback
    }
}

/// The known entries of one mapping, for the decoder.
struct Fields {
    /// Where the mapping starts: errors about a missing key point here.
    var mark: SourceMark
    var path: String
    var values: [String: YAMLNode]

    /// The value of `key`, nil when absent or null (`key:` with nothing after it).
    subscript(key: String) -> YAMLNode? {
        guard let node = values[key], !node.isNull else { return nil }
        return node
    }

    /// Where the value of `key` stands, or the mapping when it was not given.
    func mark(_ key: String) -> SourceMark { values[key]?.mark ?? mark }

    func path(_ key: String) -> String { ConfigDecoder.join(path, key) }
}
