import ArgumentParser
import DarkroomConfig
import DarkroomDaemon
import Foundation

/// `darkroom report`: reads the JSON reports one at a time and prints what an operator asks
/// first — how many, how many failed and why, how fast, how big — or the failed files alone,
/// or writes a contact sheet of them (``ContactSheetFile``).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise the JSON reports: counts by status and error, rate, times, sizes; or list the failed files.",
        discussion: """
            Without REPORTS_DIR, reads the reports folders of the config's watches (--config, else \
            the built-in config, as `darkroom run`). Reports are read one at a time, so a folder of \
            100,000 is fine. To retry every failed file:
              darkroom report --config /etc/darkroom/config.yaml --failed --paths \\
                | xargs -r -d '\\n' mv -t /var/lib/darkroom/inbox/photos/
            """
    )

    @ArgumentParser.Argument(help: "Reports folders (default: those of the config's watches).", completion: .directory)
    var reportsDirs: [String] = []

    @Option(help: "Only reports of files finished since then: 90s, 30m, 1h, 2d, 1w, or 2026-11-20 (local), 2026-11-20T14:00, 2026-11-20T14:00:00Z.")
    var since: String?

    @Option(help: "Only reports of this watch.")
    var watch: String?

    @Flag(help: "One line per failed file: when, watch, where the file is now, and the error.")
    var failed = false

    @Flag(help: "With --failed: only the paths, one a line (for xargs -d '\\n').")
    var paths = false

    @Flag(help: "JSON: the summary as one object; with --failed, one object per line.")
    var json = false

    @Option(name: .shortAndLong, help: "The daemon's YAML config (finds the reports folders and where failed files went).",
            completion: .file(extensions: ["yaml", "yml"]))
    var config: String?

    @Option(help: ArgumentHelp("Write a contact sheet instead: one self-contained HTML page with every file's thumbnail beside its outputs'.",
                               valueName: "file"), completion: .file(extensions: ["html"]))
    var html: String?

    @Option(help: "With --html: the longest side of a thumbnail, in pixels (32-1024).")
    var thumbnailSize = 160

    @Option(help: ArgumentHelp("With --html: keep thumbnails here between runs, by the files' content (default: $XDG_CACHE_HOME/darkroom/thumbnails, else ~/.cache/darkroom/thumbnails).",
                               valueName: "folder"), completion: .directory)
    var thumbnailCache: String?

    @Flag(help: "With --html: make every thumbnail anew and keep none.")
    var noThumbnailCache = false

    func validate() throws {
        if html != nil && (failed || json || paths) { throw ValidationError("--html writes a page: it cannot be combined with --failed, --paths or --json") }
        if noThumbnailCache && thumbnailCache != nil { throw ValidationError("--thumbnail-cache and --no-thumbnail-cache cannot be combined: choose one") }
        if !(32...1024).contains(thumbnailSize) { throw ValidationError("--thumbnail-size must be from 32 to 1024, got \(thumbnailSize)") }
        if paths && !failed { throw ValidationError("--paths lists failed files: use it with --failed") }
        if paths && json { throw ValidationError("--paths and --json cannot be combined: choose one output") }
        if let since, ReportSince.parse(since) == nil {
            throw ValidationError("--since \(since): expected a duration back from now (90s, 30m, 1h, 2d, 1w) or a date (2026-11-20, 2026-11-20T14:00, 2026-11-20T14:00:00Z)")
        }
    }

    func run() throws {
        let cutoff = since.flatMap { ReportSince.parse($0) }
        // The config says where failed files went; it is read when given, or when it names the folders.
        let daemonConfig: DaemonConfig? = (config != nil || reportsDirs.isEmpty) ? try ConfigChoice.load(config) : nil
        var folders = reportsDirs.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if folders.isEmpty, let daemonConfig {
            var seen = Set<String>()
            folders = daemonConfig.watches.filter { watch == nil || $0.name == watch }
                .map(\.reportsDirectory).filter { seen.insert($0).inserted }
            if folders.isEmpty {
                printError("darkroom report: the config has no watch named \"\(watch ?? "")\"; its watches: "
                    + daemonConfig.watches.map(\.name).joined(separator: ", "))
                throw ExitCode(64)
            }
        }
        let locator = InputLocator(watches: daemonConfig?.watches ?? [])
        if let html {
            // A folder missing from a sheet would go unnoticed: every one must be there.
            for folder in folders {
                guard let dir = opendir(folder) else {
                    printError("darkroom report: cannot read the folder \(folder) (\(String(cString: strerror(errno))))")
                    throw ExitCode(1)
                }
                closedir(dir)
            }
            let cacheFolder = noThumbnailCache ? nil : thumbnailCache.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? ThumbnailCache.defaultFolder()
            let sheet = try ContactSheetFile(path: html, thumbnailSize: thumbnailSize, cache: cacheFolder.map(ThumbnailCache.init))
            let unreadable = try eachReport(in: folders, as: JobReport.self, cutoff: cutoff) { sheet.add($0) }
            try sheet.finish(folders: folders, since: cutoff, unreadable: unreadable, locator: locator)
            return
        }
        var summary = ReportSummary()
        let unreadable = try eachReport(in: folders, as: JobReport.Summary.self, cutoff: cutoff) { entry in
            if failed {
                if entry.status == .failed { printFailed(entry, finished: entry.timings.finished, locator: locator) }
            } else {
                summary.add(entry, started: entry.timings.started, finished: entry.timings.finished)
            }
        }
        summary.unreadable = unreadable
        guard !failed else { return }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary.json), as: UTF8.self))
        } else {
            print(ReportText.render(summary, folders: folders, since: cutoff), terminator: "")
        }
    }

    /// Visits the reports in `folders` of the watch and period asked for, one at a time;
    /// returns how many `.json` files were not reports. Fails when no folder can be read.
    private func eachReport<Report: Decodable & FiledReport>(in folders: [String], as type: Report.Type, cutoff: Date?,
                                                               _ visit: (Report) -> Void) throws -> Int {
        var unreadable = 0, readable = 0
        for folder in folders {
            let opened = ReportFolderWalk.walk(folder) { path in
                guard let bytes = try? FileIO.read(path, maxBytes: 16 << 20),
                      let report = try? JSONDecoder().decode(Report.self, from: Data(bytes)) else {
                    unreadable += 1
                    return
                }
                if let watch, report.watch != watch { return }
                if let cutoff, report.timings.finished < cutoff { return }
                visit(report)
            }
            if opened { readable += 1 } else { printError("darkroom report: cannot read the folder \(folder) (\(String(cString: strerror(errno)))); skipped") }
        }
        if readable == 0 {
            printError("darkroom report: no reports folder could be read; give one (darkroom report DIR) or the daemon's --config")
            throw ExitCode(1)
        }
        return unreadable
    }

    private func printFailed(_ r: JobReport.Summary, finished: Date, locator: InputLocator) {
        let now = locator.currentPath(of: r.input.path, watch: r.watch, status: .failed)
        if paths {
            print(now)
        } else if json {
            let line: [String: String] = ["path": now, "input": r.input.path, "watch": r.watch,
                                          "code": r.error?.code ?? "unknown", "message": r.error?.message ?? "",
                                          "finished": ISOTime.format(r.timings.finished)]
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(line)) ?? Data(), as: UTF8.self))
        } else {
            print("\(HumanFormat.time(finished))  \(r.watch)  \(now)  \(r.error?.code ?? "unknown"): \(r.error?.message ?? "")")
        }
    }
}

/// What the report walk filters on, in the full report and in its summary alike.
protocol FiledReport {
    var watch: String { get }
    var timings: JobReport.Timings { get }
}

extension JobReport: FiledReport {}
extension JobReport.Summary: FiledReport {}
