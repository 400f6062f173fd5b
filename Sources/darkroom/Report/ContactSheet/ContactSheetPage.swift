import DarkroomDaemon
import Foundation

/// The contact sheet's page up to its thumbnails: the summary (the figures `darkroom report`
/// prints, from the same ``ReportSummary``), the filters, the cards' data as JSON and the
/// script that lays the cards out. Everything is inline: the page loads nothing.
enum ContactSheetPage {
    struct Context {
        var summary: ReportSummary
        var folders: [String]
        var since: Date?
        var thumbnailSize: Int
        var generated: Date
    }

    static func head(_ c: Context, entriesJSON: String) -> String {
        let s = c.summary
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>darkroom contact sheet: \(HumanFormat.count(s.files)) reports</title>
            <style>\(ContactSheetStyle.css(thumbnailSize: c.thumbnailSize))</style>
            </head><body>
            <header class="top"><h1>darkroom contact sheet</h1>
            <p class="sub">\(HTMLText.escape(subtitle(c)))</p>

            """
        html += figures(s)
        html += controls(s)
        html += """
            <p id="shown" role="status"></p>
            <main id="cards"></main>
            <p id="more" hidden></p>
            <script type="application/json" id="entries">\(HTMLText.scriptSafeJSON(entriesJSON))</script>
            <script>\(ContactSheetScript.js)</script>

            """
        return html
    }

    static let tail = "</body></html>\n"

    private static func subtitle(_ c: Context) -> String {
        var text = "\(HumanFormat.count(c.summary.files)) report\(c.summary.files == 1 ? "" : "s") in " + c.folders.joined(separator: ", ")
        if let since = c.since { text += " since \(HumanFormat.time(since))" }
        return text + " · made \(HumanFormat.time(c.generated)) by darkroom \(DarkroomVersion.string)"
    }

    /// Totals, rates, times, the failures by code and the slowest files.
    private static func figures(_ s: ReportSummary) -> String {
        var cells: [(String, String)] = [("reports", HumanFormat.count(s.files))]
        for status in ["ok", "failed", "skipped"] where (s.statuses[status] ?? 0) > 0 || status != "skipped" {
            cells.append((status, HumanFormat.count(s.statuses[status] ?? 0)))
        }
        if let first = s.first, let period = s.periodSeconds {
            cells.append(("period", "\(HumanFormat.duration(period)) from \(HumanFormat.time(first))"))
        }
        if let rate = s.filesPerMinute { cells.append(("rate", String(format: rate >= 10 ? "%.0f" : "%.1f", rate) + " files/min")) }
        if let median = s.medianSeconds, let p95 = s.p95Seconds {
            cells.append(("per file", "median \(HumanFormat.duration(median)), 95th percentile \(HumanFormat.duration(p95))"))
        }
        cells.append(("outputs", "\(HumanFormat.count(s.outputFiles)) files, \(HumanFormat.bytes(s.outputBytes))"))
        cells.append(("inputs", HumanFormat.bytes(s.inputBytes)))
        var html = "<dl class=\"figures\">"
        for (name, value) in cells {
            html += "<div class=\"figure\" data-figure=\"\(name)\"><dt>\(name)</dt><dd>\(HTMLText.escape(value))</dd></div>"
        }
        html += "</dl>\n"
        if s.unreadable > 0 {
            html += "<p class=\"warn\">\(HumanFormat.count(s.unreadable)) .json files were not readable as reports and are left out.</p>\n"
        }
        html += "<div class=\"lists\">"
        if !s.errorCodes.isEmpty {
            html += "<section class=\"codes\"><h2>Failures by error code</h2><ul>"
            for (code, n) in s.errorCodes.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                html += "<li><code>\(HTMLText.escape(code))</code> \(HumanFormat.count(n))</li>"
            }
            html += "</ul></section>"
        }
        if !s.slowest.isEmpty {
            html += "<section class=\"slowest\"><h2>Slowest files</h2><ol>"
            for slow in s.slowest {
                let mark = slow.status == "ok" ? "" : " (\(slow.status))"
                html += "<li><span class=\"time\">\(HumanFormat.duration(slow.seconds))</span> "
                    + "<span class=\"path\">\(HTMLText.escape(slow.path))</span> [\(HTMLText.escape(slow.watch))]\(mark)</li>"
            }
            html += "</ol></section>"
        }
        return html + "</div></header>\n"
    }

    /// Filters by status and by watch (the script reads them).
    private static func controls(_ s: ReportSummary) -> String {
        var html = "<form id=\"filters\" class=\"filters\"><fieldset><legend>Status</legend>"
        for status in ["failed", "ok", "skipped"] where (s.statuses[status] ?? 0) > 0 {
            html += "<label><input type=\"checkbox\" name=\"status\" value=\"\(status)\" checked> \(status) "
                + "(\(HumanFormat.count(s.statuses[status] ?? 0)))</label>"
        }
        html += "</fieldset><label>Watch <select id=\"watch\" name=\"watch\"><option value=\"\">all watches</option>"
        for (watch, n) in s.watches.sorted(by: { $0.key < $1.key }) {
            html += "<option value=\"\(HTMLText.escape(watch))\">\(HTMLText.escape(watch)) (\(HumanFormat.count(n)))</option>"
        }
        return html + "</select></label></form>\n"
    }
}
