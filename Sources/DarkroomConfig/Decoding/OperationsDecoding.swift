/// The top-level keys that tell the daemon where to publish what it is doing: `state_file` (read
/// by `darkroom status`) and `metrics_file` (for node_exporter's textfile collector).
extension ConfigDecoder {
    static let operationKeys = ["state_file", "metrics_file"]

    func decodeOperationFiles(_ top: Fields, into config: inout DaemonConfig) {
        config.stateFile = optional(top, "state_file", default: nil) {
            absolutePath($0, $1, "expected the path of the daemon's state file (e.g. /run/darkroom/status.json)")
        }
        config.metricsFile = optional(top, "metrics_file", default: nil) { node, path in
            guard let file = absolutePath(node, path, "expected a .prom file in node_exporter's textfile directory") else { return nil }
            // node_exporter's textfile collector reads only *.prom: any other name would be ignored silently.
            guard file.hasSuffix(".prom") else {
                error(node.mark, path, "node_exporter's textfile collector reads only files ending in .prom; got \"\(file)\"")
                return nil
            }
            return file
        }
    }
}
