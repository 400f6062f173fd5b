/// The cluster gauges each node adds to its metrics file (Prometheus text format, as
/// ``MetricsText``). Queue depths are the cluster's, read from the database; the rest is the node's.
enum ClusterMetricsText {
    static func render(node: String, snapshot: ClusterSnapshot?, databaseUp: Bool, leases: Int, ingesting: [String]) -> String {
        var out = [String]()
        func family(_ name: String, _ help: String) {
            out.append("# HELP \(name) \(help)")
            out.append("# TYPE \(name) gauge")
        }
        let n = "node=\"\(MetricsText.escape(node))\""
        family("darkroom_cluster_database_up", "Whether this node reaches the cluster's PostgreSQL (1) or not (0).")
        out.append("darkroom_cluster_database_up{\(n)} \(databaseUp ? 1 : 0)")
        family("darkroom_cluster_leases_held", "Jobs this node holds under a lease now.")
        out.append("darkroom_cluster_leases_held{\(n)} \(leases)")
        family("darkroom_cluster_ingesting", "Watches this node scans and ingests (elected per watch).")
        for watch in ingesting { out.append("darkroom_cluster_ingesting{\(n),watch=\"\(MetricsText.escape(watch))\"} 1") }
        if let snapshot {
            family("darkroom_cluster_queue_depth", "Jobs queued in the cluster, by watch (as of the node's last read).")
            for w in snapshot.watches { out.append("darkroom_cluster_queue_depth{watch=\"\(MetricsText.escape(w.name))\"} \(w.queued)") }
            family("darkroom_cluster_jobs_running", "Jobs under a live lease in the cluster, by watch.")
            for w in snapshot.watches { out.append("darkroom_cluster_jobs_running{watch=\"\(MetricsText.escape(w.name))\"} \(w.running)") }
            family("darkroom_cluster_node_heartbeat_age_seconds", "Seconds since each node's last heartbeat, by the database's clock.")
            for node in snapshot.nodes where node.stopped == nil {
                out.append("darkroom_cluster_node_heartbeat_age_seconds{node=\"\(MetricsText.escape(node.name))\"} \(MetricsText.number(node.secondsSinceHeartbeat))")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
