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
    }

    struct Counts {
        var made = 0, placeholders = 0
        /// Of `made`, those read from the thumbnail cache.
        var cached = 0
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
                if block.cached { $0.cached += 1 }
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

    private static func block(for job: Job, thumbnailer: Thumbnailer, mime: String) -> (html: String, placeholder: Bool, cached: Bool) {
        let open = "<script type=\"text/plain\" id=\"t\(job.id)\""
        guard let path = job.path else {
            return (open + " data-error=\"\(HTMLText.escape(job.missing))\"></script>\n", true, false)
        }
        do throws(ReportError) {
            // Hashed to compare with the report's hash (inputs), or for the cache's key.
            let t = try thumbnailer.thumbnail(of: path, hash: job.sha256 != nil)
            var attributes = " data-mime=\"\(mime)\" data-size=\"\(t.width)x\(t.height)\""
            if let expected = job.sha256, let seen = t.sha256, expected != seen {
                attributes += " data-note=\"\(HTMLText.escape("the file at \(path) is not the one processed: its content changed since"))\""
            }
            return (open + attributes + ">" + Data(t.bytes).base64EncodedString() + "</script>\n", false, t.cached)
        } catch {
            return (open + " data-error=\"\(HTMLText.escape("\(path): \(error.code): \(error.message)"))\"></script>\n", true, false)
        }
    }
}
