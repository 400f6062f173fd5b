import Foundation

/// The top-level `cluster:` mapping.
extension ConfigDecoder {
    static let clusterKeys = ["database", "database_file", "database_env", "database_credential", "node",
                              "scan_interval", "lease", "max_attempts", "keep_done_days"]
    private static let databaseKeys = ["database", "database_file", "database_env", "database_credential"]

    func decodeCluster(_ node: YAMLNode, _ path: String) -> ClusterConfig? {
        guard let f = fields(node, path: path, known: Self.clusterKeys) else { return nil }
        let given = Self.databaseKeys.filter { f[$0] != nil }
        guard given.count == 1, let key = given.first, let value = f[key] else {
            let mark = given.count > 1 ? f.mark(given[1]) : f.mark
            error(mark, path, given.isEmpty
                  ? "missing the database: give one of database, database_file, database_env or database_credential"
                  : "give the database once, not with both \(given[0]) and \(given[1])")
            return nil
        }
        let database: ClusterConfig.DatabaseSource
        switch key {
        case "database":
            guard let text = text(value, f.path(key), "expected a libpq connection string (host=… dbname=…) or a postgresql:// URI")
            else { return nil }
            database = .inline(text)
        case "database_file":
            guard let file = absolutePath(value, f.path(key), "expected the file holding the connection string") else { return nil }
            database = .file(file)
        case "database_env":
            guard let name = environmentName(value, f.path(key)) else { return nil }
            database = .environment(name)
        default:
            guard let name = text(value, f.path(key), "expected the name of a systemd credential (LoadCredential=NAME:…)")
            else { return nil }
            guard !name.contains("/") else {
                error(value.mark, f.path(key), "a credential name cannot hold \"/\"; got \"\(name)\"")
                return nil
            }
            database = .credential(name)
        }
        var config = ClusterConfig(database: database, node: Self.hostName())
        config.node = optional(f, "node", default: config.node) { nodeName($0, $1) }
        config.scanInterval = optional(f, "scan_interval", default: config.scanInterval) { seconds($0, $1, in: 0.05...3600) }
        config.leaseSeconds = optional(f, "lease", default: config.leaseSeconds) { seconds($0, $1, in: 1...3600) }
        config.maxAttempts = optional(f, "max_attempts", default: config.maxAttempts) { integer($0, $1, in: 1...100) }
        config.keepDoneDays = optional(f, "keep_done_days", default: config.keepDoneDays) { integer($0, $1, in: 0...3650) }
        return config
    }

    /// A node name: it stands in log lines, reports and metric labels, so letters, digits, `.`, `-`, `_`.
    private func nodeName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = text(node, path, "expected a node name") else { return nil }
        let allowed = name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x2D || c == 0x5F
        }
        guard allowed, name.utf8.count <= 63 else {
            error(node.mark, path, "expected a node name of at most 63 letters, digits, '.', '-' or '_', got \(node.shortDescription)")
            return nil
        }
        return name
    }

    private func environmentName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = text(node, path, "expected the name of an environment variable") else { return nil }
        guard name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else {
            error(node.mark, path, "expected the name of an environment variable (letters, digits, _), got \(node.shortDescription)")
            return nil
        }
        return name
    }

    /// The host name, the default node name (cut at the first dot, as `hostname -s`).
    static func hostName() -> String {
        let full = ProcessInfo.processInfo.hostName
        let short = full.split(separator: ".").first.map(String.init) ?? full
        return short.isEmpty ? "node" : short
    }
}
