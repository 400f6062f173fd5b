import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest
@testable import DarkroomDaemon

/// One open per job: what the descriptor refuses, and the read lease that tells a complete
/// file from one a writer still holds.
final class InputFileTests: XCTestCase {
    func testAFIFOIsRefusedAtOnceAndALinkIsNotFollowed() throws {
        let folder = TemporaryFolder()
        XCTAssertEqual(mkfifo(folder.file("pipe.png"), 0o644), 0)
        XCTAssertThrowsError(try InputFile.open(folder.file("pipe.png"), maxBytes: 1 << 20, lease: true)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .notRegularFile)
        }
        let target = folder.write("elsewhere.png", try encodedCard(width: 4, height: 4, format: .png))
        XCTAssertEqual(symlink(target, folder.file("link.png")), 0)
        XCTAssertThrowsError(try InputFile.open(folder.file("link.png"), maxBytes: 1 << 20, lease: true)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .notRegularFile)
        }
        XCTAssertThrowsError(try InputFile.open(folder.file("gone.png"), maxBytes: 1 << 20, lease: true)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .gone)
        }
    }

    func testTheRunnerNeverWaitsOnAFIFO() throws {
        // Before: open(2) without O_NONBLOCK waited for a writer for ever.
        let folder = TemporaryFolder()
        XCTAssertEqual(mkfifo(folder.file("pipe.png"), 0o644), 0)
        let report = JobRunner(limits: Limits()).run(inputPath: folder.file("pipe.png"), watchName: "w", outputs: [], seed: 1)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "io")
        XCTAssertTrue(report.error?.message.contains("not a regular file") == true, report.error?.message ?? "")
    }

    func testAFileOpenForWritingIsBeingWrittenAndAWriterArrivingLaterBreaksTheLease() throws {
        let folder = TemporaryFolder()
        let path = folder.write("photo.png", try encodedCard(width: 4, height: 4, format: .png))
        let writer = open(path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        XCTAssertThrowsError(try InputFile.open(path, maxBytes: 1 << 20, lease: true)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .beingWritten)
        }
        close(writer)

        let input = try InputFile.open(path, maxBytes: 1 << 20, lease: true)
        try requireLeases(in: folder)
        XCTAssertTrue(input.leased, "leases work in this folder, so the input must be held under one")
        XCTAssertFalse(input.leaseBroken)
        // A writer's open waits for the lease holder (up to lease-break-time): open it on
        // another thread, and see the break from here.
        let opened = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fd = open(path, O_WRONLY)
            close(fd)
            opened.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while !input.leaseBroken && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(input.leaseBroken, "a writer's open breaks the lease")
        withExtendedLifetime(input) {}
    }
}

extension InputFileTests {
    func testTheLeaseMonitorLetsAWriterGoOnWithoutWaitingForTheJob() throws {
        let folder = TemporaryFolder()
        let path = folder.write("photo.png", try encodedCard(width: 4, height: 4, format: .png))
        let input = try InputFile.open(path, maxBytes: 1 << 20, lease: true)
        try requireLeases(in: folder)
        XCTAssertTrue(input.leased, "leases work in this folder, so the input must be held under one")
        let monitor = LeaseMonitor()
        monitor.watch(input)
        defer { monitor.unwatch(input) }
        // Without the monitor the writer's open would wait for the job (or 45 s, the kernel's
        // lease-break-time); with it, the lease is given up as soon as it is seen broken.
        let opened = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fd = open(path, O_WRONLY)
            close(fd)
            opened.signal()
        }
        XCTAssertEqual(opened.wait(timeout: .now() + 10), .success, "the writer got its file while the job still holds it")
        XCTAssertTrue(input.leaseBroken, "and the job still sees that it must give up")
        withExtendedLifetime(input) {}
    }
}

/// The memory budget and the estimate it is fed with.
final class MemoryBudgetTests: XCTestCase {
    func testReservationsWaitForRoomAndAnEstimateLargerThanTheBudgetNeverFits() {
        let budget = MemoryBudget(total: 100)
        guard case .granted = budget.reserve(70, giveUpWhen: { false }) else { return XCTFail("room for 70") }
        guard case .neverFits = budget.reserve(101, giveUpWhen: { false }) else { return XCTFail("101 never fits in 100") }
        guard case .gaveUp = budget.reserve(40, giveUpWhen: { true }) else { return XCTFail("40 waits beside 70") }
        let granted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if case .granted = budget.reserve(40, giveUpWhen: { false }) { granted.signal() }
        }
        XCTAssertEqual(granted.wait(timeout: .now() + 0.3), .timedOut, "waits while the budget is spent")
        budget.release(70)
        XCTAssertEqual(granted.wait(timeout: .now() + 10), .success, "and goes on once there is room")
        XCTAssertEqual(budget.reserved, 40)
    }

    func testTheEstimateIsTheLargestOutputsPipelineBoundAndFollowsWidthNotHeight() throws {
        func plan(width: Int, height: Int, chains: [String]) throws -> JobPlan {
            let header = ImageInfo(format: .png, width: width, height: height, bitDepth: 8, channels: 4, colorSpace: "srgb",
                                   hasAlpha: true, orientation: 1, interlaced: false, hasICCProfile: false)
            let outputs = try chains.map {
                OutputConfig(pathTemplate: "/out/{stem}.png", format: .png, chain: try ChainSyntax.parse($0))
            }
            return try JobPlan.make(header: header, outputs: outputs,
                                    naming: .init(relativePath: "a.png", watchName: "w", mirrorFolders: false),
                                    seed: 1, limits: Limits(), executor: StripExecutor())
        }
        let executor = StripExecutor()
        let two = try plan(width: 2000, height: 2000, chains: ["sepia", "gaussian_blur radius=20 | resize width=4000"])
        XCTAssertEqual(JobMemoryEstimate.bytes(for: two, executor: executor),
                       two.outputs.map { $0.pipeline.estimatedPeakBytes(executor: executor) }.max())
        let short = JobMemoryEstimate.bytes(for: try plan(width: 2000, height: 500, chains: ["sepia"]), executor: executor)
        let tall = JobMemoryEstimate.bytes(for: try plan(width: 2000, height: 20_000, chains: ["sepia"]), executor: executor)
        XCTAssertLessThan(tall, 2 * short, "streamed: the height does not multiply the memory")
        XCTAssertLessThan(tall, 2000 * 20_000 * 16 / 10, "far below a whole float image")
    }

    /// libwebp, libheif and libjxl decode whole images, and the WebP, AVIF and JPEG XL encoders keep
    /// the whole picture: the estimate adds them, so the budget holds them; a PNG to JPEG stays streamed.
    func testWholeImageDecodersAndEncodersAreCountedInTheEstimate() throws {
        func estimate(input: ImageFormat, output: ImageFormat) throws -> Int {
            let header = ImageInfo(format: input, width: 4000, height: 3000, bitDepth: 8, channels: 3, colorSpace: "rgb",
                                   hasAlpha: false)
            let config = OutputConfig(pathTemplate: "/out/{stem}.\(output.fileExtension)", format: output,
                                      chain: try ChainSyntax.parse("sepia"))
            let plan = try JobPlan.make(header: header, outputs: [config],
                                        naming: .init(relativePath: "a", watchName: "w", mirrorFolders: false),
                                        seed: 1, limits: Limits(), executor: StripExecutor())
            return JobMemoryEstimate.bytes(for: plan, executor: StripExecutor())
        }
        let streamed = try estimate(input: .png, output: .jpeg)
        let area = 4000 * 3000
        XCTAssertLessThan(streamed, area, "a PNG to a JPEG streams: far below one byte a pixel")
        XCTAssertGreaterThanOrEqual(try estimate(input: .webp, output: .jpeg), streamed + 3 * area, "libwebp's RGB image")
        XCTAssertGreaterThanOrEqual(try estimate(input: .heif, output: .jpeg), streamed + 3 * area, "libheif's decoded image")
        XCTAssertGreaterThanOrEqual(try estimate(input: .png, output: .webp), streamed + 3 * area / 2, "the WebP encoder's YUV picture")
        XCTAssertGreaterThanOrEqual(try estimate(input: .png, output: .avif), streamed + 3 * area, "the AVIF encoder's picture")
        XCTAssertGreaterThanOrEqual(try estimate(input: .jxl, output: .jpeg), streamed + 3 * area, "libjxl's decoded frame")
        XCTAssertGreaterThanOrEqual(try estimate(input: .png, output: .jxl), streamed + 48 * area, "libjxl's encoder and its working images")
        XCTAssertLessThan(try estimate(input: .tiff, output: .tiff), area, "TIFF streams both ways")
    }

    func testTheDefaultBudgetFollowsTheSmallestMemoryMaxOnTheWayUpTheCgroupTree() throws {
        let root = TemporaryFolder()
        let cgroup = root.write("proc-self-cgroup", Array("0::/system.slice/darkroom.service\n".utf8))
        root.write("sys/system.slice/memory.max", Array("1073741824\n".utf8))
        root.write("sys/system.slice/darkroom.service/memory.max", Array("max\n".utf8))
        let budget = MemoryLimit.budget(configured: nil, cgroupRoot: root.file("sys"), procSelfCgroup: cgroup)
        XCTAssertEqual(budget.bytes, 805_306_368, "3/4 of the 1 GiB the slice allows")
        XCTAssertEqual(MemoryLimit.budget(configured: 123, cgroupRoot: root.file("sys"), procSelfCgroup: cgroup).bytes, 123)
    }
}

/// Names longer than Linux allows once a suffix is added.
final class NameFitTests: XCTestCase {
    func testLongNamesAreShortenedWithAHashAndShortOnesKept() {
        XCTAssertEqual(NameFit.fit("photo.jpg", suffix: ".json"), "photo.jpg.json")
        let long = String(repeating: "写", count: 84) + ".jpg"  // 256 bytes with .json
        let fitted = NameFit.fit(long, suffix: ".json")
        XCTAssertLessThanOrEqual(fitted.utf8.count, 255)
        XCTAssertTrue(fitted.hasPrefix("写写写") && fitted.hasSuffix(".json") && fitted.contains("~"), fitted)
        XCTAssertEqual(NameFit.fit(long, suffix: ".json"), fitted, "the same name always gets the same short one")
        XCTAssertNotEqual(NameFit.fit(long + "x", suffix: ".json"), fitted)
        XCTAssertEqual(NameFit.fitFileName(of: "/o/" + String(repeating: "a", count: 300) + ".png").suffix(4), ".png")
    }
}

/// Leases tried with fcntl directly, on a file of the test's own: where they work, an input
/// opened with `lease: true` must hold one (so code that stops taking them fails, not skips).
private func requireLeases(in folder: TemporaryFolder) throws {
    let probe = folder.write("lease-probe", [1])
    let fd = open(probe, O_RDONLY)
    defer { close(fd) }
    let works = fcntl(fd, 1024 /* F_SETLEASE */, F_RDLCK) == 0
    try TestEnvironment.require(works, "read leases in the temporary folder (run as the file's owner or root, on a local file system)")
}
