import ArgumentParser
import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import Foundation

/// `darkroom report --html FILE`: a contact sheet of what the daemon did, as one HTML file that
/// needs nothing else (``ContactSheetPage``). Reports are added one at a time and kept small
/// (``ContactSheetEntry``); the thumbnails are made at the end on every core and streamed into
/// the file (``ContactSheetThumbnails``), which appears whole or not at all (``AtomicStream``).
final class ContactSheetFile {
    private let path: String
    private let stream: AtomicStream
    private let thumbnailSize: Int
    private let cache: ThumbnailCache?
    private var entries: [ContactSheetEntry] = []
    private var summary = ReportSummary()
    private let started = DispatchTime.now()
    private var signals: [any DispatchSourceSignal] = []

    /// Opens the file's temporary twin now, so a FILE that cannot be written is said at once.
    init(path: String, thumbnailSize: Int, cache: ThumbnailCache?) throws {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
        (self.thumbnailSize, self.cache) = (thumbnailSize, cache)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: self.path, isDirectory: &isFolder), isFolder.boolValue {
            printError("darkroom report: --html \(path) is a folder; name the file to write (e.g. \(path)/contact-sheet.html)")
            throw ExitCode(1)
        }
        do throws(FileError) {
            stream = try AtomicStream(path: self.path)
        } catch {
            printError("darkroom report: --html: \(error.description)")
            throw ExitCode(1)
        }
        // Ctrl-C or a kill while the thumbnails are made leaves no temporary file beside FILE.
        let stream = self.stream
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stream.abandon()
                exit(128 + number)
            }
            source.resume()
            signals.append(source)
        }
    }

    func add(_ report: JobReport) {
        summary.add(JobReport.Summary(report), started: report.timings.started, finished: report.timings.finished)
        entries.append(ContactSheetEntry(report))
    }

    /// Where the daemon's picture is, when it was made at this sheet's size.
    private func daemonThumbnail(_ thumbnail: ReportThumbnail?) -> ContactSheetThumbnails.DaemonThumbnail? {
        guard let thumbnail, thumbnail.box == thumbnailSize, thumbnail.file.hasPrefix("/") else { return nil }
        return .init(path: thumbnail.file, made: thumbnail)
    }

    func finish(folders: [String], since: Date?, unreadable: Int, locator: InputLocator) throws {
        summary.unreadable = unreadable
        entries.sort(by: ContactSheetEntry.precedes)
        var jobs = [ContactSheetThumbnails.Job]()
        for i in entries.indices {
            let e = entries[i]
            entries[i].thumbnail = jobs.count
            let candidates = locator.candidates(of: e.input, watch: e.watch, status: e.reportStatus)
            let found = candidates.first { FileManager.default.fileExists(atPath: $0) }
            if let found, found != e.input { entries[i].now = found }
            jobs.append(.init(id: jobs.count, path: found, missing: "input " + locator.absence(of: e.input, watch: e.watch, status: e.reportStatus),
                              sha256: e.sha256, daemonThumbnail: daemonThumbnail(e.inputThumbnail)))
            for (output, thumbnail) in zip(e.outputs, e.outputThumbnails) {
                let there = FileManager.default.fileExists(atPath: output.path)
                jobs.append(.init(id: jobs.count, path: there ? output.path : nil,
                                  missing: "output no longer there: \(output.path)", sha256: nil,
                                  daemonThumbnail: daemonThumbnail(thumbnail)))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(entries), as: UTF8.self)
        let context = ContactSheetPage.Context(summary: summary, folders: folders, since: since,
                                               thumbnailSize: thumbnailSize, generated: Date())
        let made: ContactSheetThumbnails.Counts
        do {
            try stream.write(ContactSheetPage.head(context, entriesJSON: json))
            // As the daemon's workers: one file per core, their strips sharing the cores.
            let executor = StripExecutor()
            let thumbnailer = Thumbnailer(box: thumbnailSize, format: .webp, quality: 70, executor: executor, cache: cache)
            let stream = self.stream
            made = try ContactSheetThumbnails.make(jobs, thumbnailer: thumbnailer, workers: executor.concurrency) { try stream.write($0) }
            try stream.write(ContactSheetPage.tail)
            try stream.commit()
        } catch let error as FileError {
            printError("darkroom report: --html: \(error.description)")
            throw ExitCode(1)
        }
        if let cache {
            cache.prune()
            if let failure = cache.firstFailure {
                printError("darkroom report: warning: thumbnails cannot be kept in \(cache.folder) (\(failure.description)); "
                           + "they are made anew each time (--thumbnail-cache FOLDER to keep them elsewhere, --no-thumbnail-cache to not try)")
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let failed = summary.statuses["failed"] ?? 0
        print("wrote \(path): \(HumanFormat.count(entries.count)) reports (\(HumanFormat.count(failed)) failed), "
              + "\(HumanFormat.count(made.made)) thumbnails\(origins(made))\(made.placeholders > 0 ? " and \(HumanFormat.count(made.placeholders)) placeholders" : ""), "
              + "\(HumanFormat.bytes(size)) in \(HumanFormat.duration(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9))")
    }

    /// Where the thumbnails not made now came from: " (900 the daemon's, 12 from the cache)".
    private func origins(_ made: ContactSheetThumbnails.Counts) -> String {
        let parts = [made.daemon > 0 ? "\(HumanFormat.count(made.daemon)) the daemon's" : nil,
                     made.cached > 0 ? "\(HumanFormat.count(made.cached)) from the cache" : nil].compactMap { $0 }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}
