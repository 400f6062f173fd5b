import Foundation

/// The Prometheus text exposition format (version 0.0.4) of the daemon's counters, as
/// node_exporter's textfile collector reads it: no timestamps (the collector stamps each
/// scrape, and `node_textfile_mtime_seconds` tells how fresh the file is).
enum MetricsText {
    static func render(_ state: DaemonState, activity: DaemonActivity.State) -> String {
        var out = [String]()
        func family(_ name: String, _ type: String, _ help: String) {
            out.append("# HELP \(name) \(help)")
            out.append("# TYPE \(name) \(type)")
        }
        // Watches of the running config first, then any a reload removed (counters never vanish).
        let current = state.watches.map(\.name)
        let names = current + activity.watches.keys.filter { !current.contains($0) }.sorted()

        family("darkroom_files_total", "counter", "Files processed, by watch and report status (ok, failed, skipped).")
        for name in names {
            let totals = activity.watches[name]?.totals ?? [:]
            for status in ["ok", "failed", "skipped"] {
                out.append("darkroom_files_total{watch=\"\(escape(name))\",status=\"\(status)\"} \(totals[status] ?? 0)")
            }
        }

        family("darkroom_file_seconds", "histogram", "Time to process one file (read, decode, every chain, encode, write), by watch.")
        for name in names {
            let h = activity.watches[name]?.seconds ?? FileSecondsHistogram()
            let label = "watch=\"\(escape(name))\""
            for (bound, count) in zip(FileSecondsHistogram.bounds, h.cumulative) {
                out.append("darkroom_file_seconds_bucket{\(label),le=\"\(number(bound))\"} \(count)")
            }
            out.append("darkroom_file_seconds_bucket{\(label),le=\"+Inf\"} \(h.count)")
            out.append("darkroom_file_seconds_sum{\(label)} \(number(h.sum))")
            out.append("darkroom_file_seconds_count{\(label)} \(h.count)")
        }

        family("darkroom_queue_depth", "gauge", "Files waiting in the daemon's queue, by watch (files beyond queue_capacity wait in the folder).")
        for watch in state.watches { out.append("darkroom_queue_depth{watch=\"\(escape(watch.name))\"} \(watch.queued)") }

        family("darkroom_inflight_files", "gauge", "Files being processed now.")
        out.append("darkroom_inflight_files \(activity.inFlight.count)")

        family("darkroom_last_success_timestamp_seconds", "gauge", "When a file of this watch was last processed successfully (Unix time).")
        for name in names {
            guard let last = activity.watches[name]?.lastSuccess else { continue }
            out.append("darkroom_last_success_timestamp_seconds{watch=\"\(escape(name))\"} \(number(last.timeIntervalSince1970))")
        }

        family("darkroom_config_reloads_total", "counter", "Config reloads (SIGHUP), by result: success, or failure (the old config kept running).")
        for result in ["success", "failure"] {
            out.append("darkroom_config_reloads_total{result=\"\(result)\"} \(activity.reloads[result] ?? 0)")
        }

        family("darkroom_start_time_seconds", "gauge", "When the daemon started (Unix time).")
        out.append("darkroom_start_time_seconds \(number(state.started.timeIntervalSince1970))")
        return out.joined(separator: "\n") + "\n"
    }

    /// Label values escape backslash, double quote and newline.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Shortest form that reads back as the same number (`0.25`, `5`, `1795347451.044`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
