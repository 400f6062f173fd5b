import DarkroomCodecs
import DarkroomDaemon
import Dispatch
import Foundation

/// The contact sheet's thumbnails, made by the daemon's own workers (``JobQueue``, their
/// strips sharing the cores through the engine's compute slots) and appended to the page as
/// each is done, so memory holds a few thumbnails whatever the number of files. Each is a
/// `<script type="text/plain" id="tN">` block of base64 the page turns into an image when its
/// card comes into view; a file that is missing or unreadable gets a block saying why instead.
enum ContactSheetThumbnails {
    /// One thumbnail to make: of the file at `path`, or a placeholder saying `missing`.
    struct Job: Sendable {
        var id: Int
        var path: String?
        var missing: String
        /// The SHA-256 the report gives for the file, when it is an input.
        var sha256: String?
        /// The picture the daemon wrote of the file, if any.
        var daemonThumbnail: DaemonThumbnail?
    }

    /// A picture the daemon wrote beside a report (``ReportThumbnail``) and where it is.
    struct DaemonThumbnail: Sendable {
        var path: String
        var made: ReportThumbnail
    }

    struct Counts {
        var made = 0, placeholders = 0
        /// Of `made`, those read from the thumbnail cache, and those the daemon wrote.
        var cached = 0, daemon = 0
    }

    /// Makes every thumbnail of `jobs` and hands each block to `write` (called under a lock).
    static func make(_ jobs: [Job], thumbnailer: Thumbnailer, workers: Int,
                     write: @escaping @Sendable (String) throws -> Void) throws -> Counts {
        let counts = Locked(Counts())
        let failure = Locked<(any Error)?>(nil)
        let writing = NSLock()
        let room = DispatchSemaphore(value: workers * 2)
        let mime = "image/" + thumbnailer.format.rawValue
        let queue = JobQueue<Job>(capacity: workers * 2 + 1, workers: workers) { job in
            defer { room.signal() }
            guard failure.current == nil else { return }
            let block = Self.block(for: job, thumbnailer: thumbnailer, mime: mime)
            counts.withLock {
                if block.placeholder { $0.placeholders += 1 } else { $0.made += 1 }
                if block.source == .cache { $0.cached += 1 }
                if block.source == .daemon { $0.daemon += 1 }
            }
            writing.lock()
            defer { writing.unlock() }
            do { try write(block.html) } catch { failure.withLock { $0 = $0 ?? error } }
        }
        for job in jobs {
            room.wait()
            if failure.current != nil { break }
            _ = queue.submit(job, key: String(job.id))
        }
        while !queue.waitForRunning(upTo: 1) {}
        if let error = failure.current { throw error }
        return counts.current
    }

    enum Source { case made, cache, daemon }

    private static func block(for job: Job, thumbnailer: Thumbnailer, mime: String) -> (html: String, placeholder: Bool, source: Source) {
        let open = "<script type=\"text/plain\" id=\"t\(job.id)\""
        guard let path = job.path else {
            return (open + " data-error=\"\(HTMLText.escape(job.missing))\"></script>\n", true, .made)
        }
        // The daemon's picture, when the file is still the one it was made from (the stamp
        // matches, so the file is the one processed: no hash to compare).
        if let daemon = job.daemonThumbnail, daemon.made.shows(fileAt: path), let picture = read(daemon, format: thumbnailer.format) {
            return (open + " data-mime=\"\(mime)\" data-size=\"\(daemon.made.width)x\(daemon.made.height)\">"
                    + Data(picture).base64EncodedString() + "</script>\n", false, .daemon)
        }
        do throws(ReportError) {
            // Hashed to compare with the report's hash (inputs), or for the cache's key.
            let t = try thumbnailer.thumbnail(of: path, hash: job.sha256 != nil)
            var attributes = " data-mime=\"\(mime)\" data-size=\"\(t.width)x\(t.height)\""
            if let expected = job.sha256, let seen = t.sha256, expected != seen {
                attributes += " data-note=\"\(HTMLText.escape("the file at \(path) is not the one processed: its content changed since"))\""
            }
            return (open + attributes + ">" + Data(t.bytes).base64EncodedString() + "</script>\n", false, t.cached ? .cache : .made)
        } catch {
            return (open + " data-error=\"\(HTMLText.escape("\(path): \(error.code): \(error.message)"))\"></script>\n", true, .made)
        }
    }

    /// The daemon's picture, if it is there, small and of the size its report says.
    private static func read(_ daemon: DaemonThumbnail, format: ImageFormat) -> [UInt8]? {
        guard let bytes = try? FileIO.read(daemon.path, maxBytes: 1 << 20), let info = try? ImageCodec.readInfo(bytes),
              info.format == format, info.width == daemon.made.width, info.height == daemon.made.height else { return nil }
        return bytes
    }
}
