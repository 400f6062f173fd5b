/// The top level of the config file.
extension ConfigDecoder {
    static let topLevelKeys = ["workers", "queue_capacity", "limits", "log", "watches", "cluster"] + operationKeys
    static let limitsKeys = ["max_pixels", "max_file_bytes", "max_memory", "max_seconds"]
    static let logKeys = ["level", "format"]

    /// The config with defaults where values were missing or bad, and the watches as decoded
    /// (with the positions the cross-checks point at).
    func decodeConfig(_ root: YAMLNode) -> (DaemonConfig, [DecodedWatch]) {
        var config = DaemonConfig(watches: [])
        guard let top = fields(root, path: "", known: Self.topLevelKeys) else { return (config, []) }
        config.workers = optional(top, "workers", default: config.workers) { integer($0, $1, in: 1...256) }
        config.queueCapacity = optional(top, "queue_capacity", default: config.queueCapacity) {
            integer($0, $1, in: 1...1_000_000)
        }
        if let node = top["limits"] { config.limits = decodeLimits(node, top.path("limits")) }
        // Files the chains name are held to the same limits as the inputs.
        assets = assets.limited(maxPixels: config.limits.maxPixels, maxFileBytes: config.limits.maxFileBytes)
        if let node = top["log"] { config.log = decodeLog(node, top.path("log")) }
        decodeOperationFiles(top, into: &config)
        if let node = top["cluster"] { config.cluster = decodeCluster(node, top.path("cluster")) }

        var watches = [DecodedWatch]()
        if let node = required(top, "watches", "a list of folders to watch") {
            if case .sequence(let items) = node.content, !items.isEmpty {
                for (index, item) in items.enumerated() {
                    if let watch = decodeWatch(item, path: "watches[\(index)]", index: index) { watches.append(watch) }
                }
            } else {
                error(node.mark, "watches", "expected a list of at least one watch (- path: …), got \(node.shortDescription)")
            }
        }
        config.watches = watches.map(\.config)
        return (config, watches)
    }

    private func decodeLimits(_ node: YAMLNode, _ path: String) -> Limits {
        var limits = Limits()
        guard let f = fields(node, path: path, known: Self.limitsKeys) else { return limits }
        limits.maxPixels = optional(f, "max_pixels", default: limits.maxPixels) { integer($0, $1, in: 1...Limits.maximumPixelLimit) }
        limits.maxFileBytes = optional(f, "max_file_bytes", default: limits.maxFileBytes) { byteSize($0, $1) }
        limits.maxMemory = optional(f, "max_memory", default: nil) { byteSize($0, $1) }
        limits.maxSeconds = optional(f, "max_seconds", default: limits.maxSeconds) { seconds($0, $1, in: 0.001...86_400) }
        return limits
    }

    private func decodeLog(_ node: YAMLNode, _ path: String) -> LogSettings {
        var log = LogSettings()
        guard let f = fields(node, path: path, known: Self.logKeys) else { return log }
        log.level = optional(f, "level", default: log.level) { word($0, $1, among: LogSettings.levels) }
        log.format = optional(f, "format", default: log.format) { choice($0, $1, LogFormat.self) }
        return log
    }
}
