/// A watch as decoded, with where its folders were written so that cross-checks can point there.
struct DecodedWatch {
    var config: WatchConfig
    var path: String
    var fields: Fields
    /// Each output's `path` entry: its config path (`watches[0].outputs[1].path`) and position.
    var outputs: [(path: String, mark: SourceMark)]
}

extension ConfigDecoder {
    static let watchKeys = [
        "name", "path", "recursive", "include", "settle_ms", "on_success",
        "done_dir", "failed_dir", "reports_dir", "on_conflict", "seed", "thumbnails", "thumbnails_dir", "outputs",
    ]

    /// Nil when the watch has no usable path (nothing else about it can then be checked).
    func decodeWatch(_ node: YAMLNode, path: String, index: Int) -> DecodedWatch? {
        guard let f = fields(node, path: path, known: Self.watchKeys) else { return nil }
        let folder = required(f, "path", "the folder to watch").flatMap {
            absolutePath($0, f.path("path"), "expected the folder to watch")
        }
        var name: String?
        if let node = f["name"] {
            name = text(node, f.path("name"), "expected a name")
            if let n = name, n.contains("/") || n == "." || n == ".." {
                error(node.mark, f.path("name"), "a name is used in file paths ({watch}), so it cannot be \".\", \"..\" or hold \"/\"; got \"\(n)\"")
                name = nil
            }
        }
        let include = f["include"].flatMap { globs($0, f.path("include")) } ?? WatchConfig.defaultInclude
        let outputs = decodeOutputs(f)
        guard let folder else { return nil }
        let dir = { (key: String) in self.optional(f, key, default: nil) { self.absolutePath($0, $1, "expected a folder") } }
        var config = WatchConfig(
            name: name, path: folder,
            recursive: optional(f, "recursive", default: false) { boolean($0, $1) },
            include: include,
            settleMilliseconds: optional(f, "settle_ms", default: 250) { integer($0, $1, in: 0...600_000) },
            onSuccess: optional(f, "on_success", default: .move) { choice($0, $1, SuccessAction.self) },
            doneDirectory: dir("done_dir"), failedDirectory: dir("failed_dir"), reportsDirectory: dir("reports_dir"),
            onConflict: optional(f, "on_conflict", default: .number) { choice($0, $1, ConflictRule.self) },
            seed: optional(f, "seed", default: nil) { seed($0, $1) },
            outputs: outputs.map(\.config))
        config.thumbnailBox = optional(f, "thumbnails", default: WatchConfig.defaultThumbnailBox) { thumbnailBox($0, $1) }
        if let folder = dir("thumbnails_dir") { config.thumbnailsDirectory = folder }
        return DecodedWatch(config: config, path: path, fields: f, outputs: outputs.map { ($0.path, $0.mark) })
    }

    /// File-name globs: one, or a list of them.
    private func globs(_ node: YAMLNode, _ path: String) -> [String]? {
        let items: [(YAMLNode, String)]
        switch node.content {
        case .sequence(let list) where !list.isEmpty: items = list.enumerated().map { ($1, "\(path)[\($0)]") }
        case .scalar: items = [(node, path)]
        default:
            error(node.mark, path, "expected a list of file-name globs such as \"*.jpg\", got \(node.shortDescription)")
            return nil
        }
        var globs = [String]()
        for (item, itemPath) in items {
            guard let glob = text(item, itemPath, "expected a file-name glob such as \"*.jpg\"") else { continue }
            guard !glob.contains("/") else {
                error(item.mark, itemPath, "globs match file names, not paths; remove the \"/\" from \"\(glob)\"")
                continue
            }
            globs.append(glob)
        }
        return globs.count == items.count ? globs : nil
    }

    private func decodeOutputs(_ f: Fields) -> [(config: OutputConfig, path: String, mark: SourceMark)] {
        guard let node = required(f, "outputs", "a list of images to write for each input") else { return [] }
        guard case .sequence(let items) = node.content, !items.isEmpty else {
            error(node.mark, f.path("outputs"), "expected a list of at least one output (- path: …), got \(node.shortDescription)")
            return []
        }
        return items.enumerated().compactMap { index, item in
            let path = f.path("outputs") + "[\(index)]"
            return decodeOutput(item, path: path).map { ($0.config, path + ".path", $0.mark) }
        }
    }
}
