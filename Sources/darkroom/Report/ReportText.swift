import Foundation

/// `darkroom report`'s summary as text, meant to be read at a glance.
enum ReportText {
    static func render(_ s: ReportSummary, folders: [String], since: Date?) -> String {
        var lines = [String]()
        let from = folders.count == 1 ? folders[0] : "\(folders.count) folders (\(folders.joined(separator: ", ")))"
        var head = "\(HumanFormat.count(s.files)) report\(s.files == 1 ? "" : "s") in \(from)"
        if let since { head += " since \(HumanFormat.time(since))" }
        lines.append(head)
        if s.unreadable > 0 { lines.append("(\(HumanFormat.count(s.unreadable)) .json files were not readable as reports and are left out)") }
        guard s.files > 0, let first = s.first, let last = s.last else {
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("from \(HumanFormat.time(first)) to \(HumanFormat.time(last)) (\(HumanFormat.duration(s.periodSeconds ?? 0)))")
        lines.append("")
        let width = HumanFormat.count(s.statuses.values.max() ?? 0).count
        for status in ["ok", "failed", "skipped"] + s.statuses.keys.filter({ !["ok", "failed", "skipped"].contains($0) }).sorted() {
            let n = s.statuses[status] ?? 0
            guard n > 0 || status != "skipped" else { continue }
            var line = "  " + status.padding(toLength: 8, withPad: " ", startingAt: 0) + pad(HumanFormat.count(n), width)
            if status == "failed" && !s.errorCodes.isEmpty {
                let codes = s.errorCodes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \(HumanFormat.count($0.value))" }
                line += "   " + codes.joined(separator: ", ")
            }
            lines.append(line)
        }
        lines.append("")
        if let rate = s.filesPerMinute {
            lines.append("rate      " + String(format: rate >= 10 ? "%.0f" : "%.1f", rate) + " files/min")
        }
        if let median = s.medianSeconds, let p95 = s.p95Seconds, let max = s.maxSeconds {
            lines.append("per file  median \(HumanFormat.duration(median)), 95th percentile \(HumanFormat.duration(p95)), slowest \(HumanFormat.duration(max))")
        }
        lines.append("outputs   \(HumanFormat.count(s.outputFiles)) files, \(HumanFormat.bytes(s.outputBytes)) (inputs \(HumanFormat.bytes(s.inputBytes)))")
        if s.watches.count > 1 {
            lines.append("watches   " + s.watches.sorted { $0.key < $1.key }.map { "\($0.key) \(HumanFormat.count($0.value))" }.joined(separator: ", "))
        }
        lines.append("")
        lines.append("slowest")
        for slow in s.slowest {
            let mark = slow.status == "ok" ? "" : " (\(slow.status))"
            lines.append("  " + HumanFormat.duration(slow.seconds).padding(toLength: 10, withPad: " ", startingAt: 0) + "\(slow.path) [\(slow.watch)]\(mark)")
        }
        if (s.statuses["failed"] ?? 0) > 0 {
            lines.append("")
            lines.append("`darkroom report --failed` lists the failed files.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
