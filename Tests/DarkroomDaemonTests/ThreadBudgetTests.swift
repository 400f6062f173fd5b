import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// The threads darkroom starts come out of the compute slots (``ComputeSlots/shared``) or the
/// stated allowance (``DecoderThreads``): a job may run one decoder helper and one hashing
/// thread beyond the slots. Threads are counted the way `top -H` does, in /proc/self/task.
final class ThreadBudgetTests: XCTestCase {
    /// Counts this process's threads every half millisecond while it runs; the highest count seen.
    private final class ThreadSampler: @unchecked Sendable {
        private let lock = NSLock()
        private var highest = 0
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)

        static func threads() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        }

        init() {
            Thread.detachNewThread { [self] in
                while !lock.withLock({ stopped }) {
                    let n = Self.threads()
                    lock.withLock { highest = max(highest, n) }
                    usleep(500)
                }
                done.signal()
            }
        }

        /// Runs `work`, sampling meanwhile: the most threads it ran beside those there before
        /// (the sampler's own not counted), and its result.
        static func started<T>(by work: () throws -> T) rethrows -> (threads: Int, result: T) {
            let sampler = ThreadSampler()
            usleep(2000)
            let before = threads()
            let result = try work()
            return (sampler.stop() - before, result)
        }

        /// Stops sampling; the highest count, the sampler's own thread included.
        func stop() -> Int {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { highest }
        }
    }

    private func heic(in folder: TemporaryFolder, side: Int) throws -> [UInt8] {
        let png = folder.write("src.png", try encodedCard(width: side, height: side, format: .png))
        try ToolProcess.run("/usr/bin/heif-enc", ["-q", "60", png, "-o", folder.file("photo.heic")])
        return try FileIO.read(folder.file("photo.heic"))
    }

    /// A TIFF of many LZW strips, read in place: its reader reads the next strip ahead on a thread.
    private func stripedTIFF(in folder: TemporaryFolder) throws -> String {
        let png = folder.write("scan.png", try encodedCard(width: 1200, height: 900, format: .png))
        let plain = folder.file("plain.tif"), tif = folder.file("scan.tif")
        try ToolProcess.run("/usr/bin/vips", ["tiffsave", png, plain])
        try ToolProcess.run("/usr/bin/tiffcp", ["-c", "lzw", "-r", "8", plain, tif])
        return tif
    }

    /// With every slot taken, a HEVC decode runs one worker (its caller waits on it), not one
    /// per core; with a slot free it may take it. A grid HEIC's tiles no longer get threads of
    /// libheif's own either.
    func testAHEVCDecodeRunsNoMoreWorkersThanTheFreeSlots() throws {
        let folder = TemporaryFolder()
        let photo = try heic(in: folder, side: 1024)
        // The codecs' fixture: a 3×2 grid of HEVC tiles.
        let grid = try FileIO.read(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DarkroomCodecsTests/Fixtures/grid.heic").standardized.path)
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        for (name, bytes) in [("photo", photo), ("grid", grid)] {
            for free in Set([0, min(1, slots.count)]) {
                slots.release(free)
                let (started, _) = try ThreadSampler.started { try ImageDecoder(bytes) }
                XCTAssertEqual(slots.tryAcquire(upTo: free), free, "the decode gave its slots back")
                XCTAssertLessThanOrEqual(started, max(1, free), "\(name) with \(free) slots free: \(started) threads started")
            }
        }
    }

    /// An AVIF's AV1 decodes on darkroom's dav1d plugin: on the caller's thread alone while fewer
    /// than two slots are free (libheif's own plugin started a dav1d thread per core whatever
    /// else ran), on as many threads as slots otherwise.
    func testAnAV1DecodeRunsNoMoreThreadsThanTheFreeSlots() throws {
        let avif = try encodedCard(width: 1024, height: 1024, format: .avif)
        XCTAssertGreaterThan(avif.count, 8 * 1024, "large enough for threads to pay")
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        for free in Set([0, min(1, slots.count), min(2, slots.count)]).sorted() {
            slots.release(free)
            let (started, decoder) = try ThreadSampler.started { try ImageDecoder(avif) }
            XCTAssertEqual(decoder.size.width, 1024)
            XCTAssertEqual(slots.tryAcquire(upTo: free), free, "the decode gave its slots back")
            XCTAssertLessThanOrEqual(started, free < 2 ? 0 : free, "with \(free) slots free: \(started) threads started")
        }
    }

    /// libjxl's parallel stages run on darkroom's runner: with every slot taken a JPEG XL decode
    /// and encode (at finish, where libjxl encodes the kept rows) start no thread at all; with a
    /// slot free, at most one.
    func testAJPEGXLDecodeAndEncodeRunNoMoreHelpersThanTheFreeSlots() throws {
        let side = 1024
        let jxl = try encodedCard(width: side, height: side, format: .jxl)
        let rows = [UInt8](repeating: 0, count: side * side * 3).enumerated().map { UInt8(truncatingIfNeeded: $0.offset * 7 / 3) }
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        for free in Set([0, min(1, slots.count)]) {
            slots.release(free)
            var encoder = try ImageEncoder(size: Size(width: side, height: side), options: EncodeOptions(format: .jxl),
                                           traits: OutputTraits(alpha: false))
            try encoder.write(rows, rows: 0..<side)
            for (name, work) in [("decode", { _ = try ImageDecoder(jxl) }), ("encode", { _ = try encoder.finish() })] as [(String, () throws -> Void)] {
                let (started, _) = try ThreadSampler.started(by: work)
                XCTAssertLessThanOrEqual(started, free, "JPEG XL \(name) with \(free) slots free: \(started) threads started")
            }
            XCTAssertEqual(slots.tryAcquire(upTo: free), free, "the decode and encode gave their slots back")
        }
    }

    /// libraw's OpenMP loops (Debian builds it with OpenMP) run on the calling thread alone while
    /// every slot is taken, and on one more with one slot free. libgomp keeps its threads parked
    /// once started, so the run with no slot free comes first.
    func testARawDecodeRunsNoMoreOpenMPThreadsThanTheFreeSlots() throws {
        let folder = TemporaryFolder()
        try DNGFile.make(["--synthetic", "512x384", folder.file("photo.dng")])
        let bytes = try FileIO.read(folder.file("photo.dng"))
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        for free in [0, min(1, slots.count)] {
            slots.release(free)
            let (started, decoder) = try ThreadSampler.started { try ImageDecoder(bytes) }
            XCTAssertEqual(decoder.size.width, 512)
            XCTAssertEqual(slots.tryAcquire(upTo: free), free, "the decode gave its slots back")
            XCTAssertLessThanOrEqual(started, free, "with \(free) slots free: \(started) threads started")
        }
    }

    /// libimagequant (Debian builds it with OpenMP) quantises a GIF on the encoding thread alone:
    /// with every slot taken, a GIF of noisy colours (a full palette search) starts no thread.
    func testAGIFEncodeStartsNoOpenMPThreadsWithNoSlotFree() throws {
        let side = 600
        let rows = (0..<side * side * 3).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        var encoder = try ImageEncoder(size: Size(width: side, height: side), options: EncodeOptions(format: .gif),
                                       traits: OutputTraits(alpha: false))
        try encoder.write(rows, rows: 0..<side)
        let (started, gif) = try ThreadSampler.started { try encoder.finish() }
        XCTAssertGreaterThan(gif.count, 1000)
        XCTAssertLessThanOrEqual(started, 0, "a GIF encode with no slot free started \(started) threads")
    }

    /// A HEIC, a TIFF read in place and a file being hashed at once: never more threads than
    /// the slots plus each job's allowance (one decoder helper, one hashing thread) plus the
    /// test's own three.
    func testAHEICATIFFAndAHashingJobTogetherStayInTheBudget() throws {
        let folder = TemporaryFolder()
        let photo = try heic(in: folder, side: 1536)
        let tif = try stripedTIFF(in: folder)
        let big = folder.write("big.bin", [UInt8](repeating: 7, count: 64 << 20))
        let sampler = ThreadSampler()
        usleep(2000)
        let before = ThreadSampler.threads()
        let group = DispatchGroup()
        let failures = Locked([String]())
        func job(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
            group.enter()
            Thread.detachNewThread {
                do { try body() } catch { failures.withLock { $0.append("\(name): \(error)") } }
                group.leave()
            }
        }
        job("heic") { _ = try ImageDecoder(photo) }
        job("tiff") {
            let input = try InputFile.open(tif, maxBytes: 1 << 30, lease: false)
            let decoder = try ImageDecoder(input.content)
            let rows = UnsafeMutablePointer<Pixel>.allocate(capacity: decoder.size.width * 16)
            defer { rows.deallocate() }
            var y = 0
            while y < decoder.size.height {
                let n = min(16, decoder.size.height - y)
                try decoder.readRows(count: n, into: rows, stride: decoder.size.width)
                y += n
            }
        }
        job("hash") { _ = try InputFile.open(big, maxBytes: 1 << 30, lease: false).sha256() }
        group.wait()
        let most = sampler.stop()
        XCTAssertEqual(failures.current, [])
        let allowance = 3 /* jobs */ * 2 /* decoder helper + hashing thread */
        XCTAssertLessThanOrEqual(most - before, ComputeSlots.shared.count + allowance + 3 /* the test's job threads */)
    }

    /// An SVG with a blur filter (librsvg runs filters on rayon's pool) and a PDF page: at most
    /// one helper thread beside the caller, whatever the core count.
    func testAnSVGFilterAndAPDFPageRunAtMostOneHelper() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="1500"><defs><filter id="b">"#
            + #"<feGaussianBlur stdDeviation="30"/></filter></defs><g filter="url(#b)"><rect x="100" y="100" width="1300" "#
            + #"height="1300" fill="red"/><circle cx="750" cy="750" r="500" fill="blue"/></g></svg>"#
        let pdf = [UInt8](try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DarkroomCodecsTests/Fixtures/pages.pdf").standardized))
        for (name, bytes) in [("svg", Array(svg.utf8)), ("pdf", pdf)] {
            let sampler = ThreadSampler()
            usleep(2000)
            let before = ThreadSampler.threads()
            let decoder = try ImageDecoder(bytes)
            let rows = UnsafeMutablePointer<Pixel>.allocate(capacity: decoder.size.width * decoder.size.height)
            defer { rows.deallocate() }
            try decoder.readRows(count: decoder.size.height, into: rows, stride: decoder.size.width)
            let most = sampler.stop()
            XCTAssertGreaterThan(rows[decoder.size.width * (decoder.size.height / 2) + decoder.size.width / 2][3], 0.5,
                                 "\(name): drawn")
            XCTAssertLessThanOrEqual(most - before, 1, "\(name): \(most - before) threads started")
        }
    }
}
