import DarkroomCodecs
@testable import DarkroomCore
import Foundation
import XCTest

/// libjxl's parallel stages run on darkroom's runner: on the compute slots free at each stage,
/// its helper threads kept between stages (as libjxl's own pool keeps its workers), and every
/// task run once whoever runs it.
final class JPEGXLRunnerTests: XCTestCase {
    /// Collects every thread id in /proc/self/task, every 200 µs, until stopped.
    private final class ThreadSampler: @unchecked Sendable {  // every field under `lock`
        private let lock = NSLock()
        private var seen = Set<String>()
        private var own: String?
        private var stopped = false
        private let done = DispatchSemaphore(value: 0)

        init() {
            Thread.detachNewThread { [self] in
                // "PID/task/TID"
                let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                    .map { String($0.split(separator: "/").last ?? "") }
                while !lock.withLock({ stopped }) {
                    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
                    lock.withLock {
                        seen.formUnion(tasks)
                        self.own = own
                    }
                    usleep(200)
                }
                done.signal()
            }
        }

        /// Stops sampling; the threads seen, the sampler's own left out.
        func stop() -> Set<String> {
            lock.withLock { stopped = true }
            done.wait()
            return lock.withLock { seen.subtracting(own.map { [$0] } ?? []) }
        }
    }

    /// Every thread id seen in /proc/self/task while `work` runs.
    private func threadsSeen(during work: () throws -> Void) throws -> Set<String> {
        let sampler = ThreadSampler()
        do { try work() } catch {
            _ = sampler.stop()
            throw error
        }
        return sampler.stop()
    }

    private func threadsNow() throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) }

    /// A 768×512 picture of noise (so libjxl's stages have work in them), encoded at effort 7.
    private func encode() throws -> [UInt8] {
        let (width, height) = (768, 512)
        let rows = (0..<width * height * 3).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        var encoder = try ImageEncoder(size: Size(width: width, height: height), options: EncodeOptions(format: .jxl),
                                       traits: OutputTraits(alpha: false))
        try encoder.write(rows, rows: 0..<height)
        return try encoder.finish()
    }

    /// With every slot but one taken, an encode starts at most one helper thread in all, not one
    /// per stage, and the next encode starts none: it wakes the helper the first one parked.
    func testAnEncodesHelperThreadIsKeptBetweenStagesAndEncodes() throws {
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        defer { slots.release(held) }
        let free = min(1, slots.count - 1)
        slots.release(free)
        defer { _ = slots.tryAcquire(upTo: free) }
        for pass in ["first", "second"] {
            let before = try threadsNow()
            let seen = try threadsSeen { _ = try encode() }
            let started = seen.subtracting(before)
            XCTAssertLessThanOrEqual(started.count, pass == "first" ? free : 0,
                                     "the \(pass) encode with \(free) slot(s) free started threads \(started.sorted())")
        }
    }

    /// The file is the same whether the stages ran on the calling thread alone or with every
    /// core's helper: each task ran once, whichever thread took it.
    func testTheFileIsTheSameWhateverTheHelpers() throws {
        let slots = ComputeSlots.shared
        let held = slots.tryAcquire(upTo: slots.count)
        XCTAssertEqual(held, slots.count, "another test holds slots")
        let alone = try encode()
        slots.release(held)
        let helped = try encode()
        XCTAssertFalse(alone.isEmpty)
        XCTAssertEqual(alone, helped)
        XCTAssertEqual(try ImageCodec.readInfo(helped).width, 768)
    }
}
