import Foundation
import XCTest
@testable import DarkroomDaemon

final class ProcessMemoryTests: XCTestCase {
    /// Blocks under the mmap threshold live in a heap; freed between blocks still in use, glibc keeps
    /// their pages. When the last running job gives its memory back, the daemon must return them.
    func testTheLastJobsReleaseGivesFreedHeapPagesBack() throws {
        ProcessMemory.returnLargeBlocks()
        let size = 1 << 20
        let blocks = (0..<128).map { _ -> UnsafeMutableRawPointer in
            let block = malloc(size)!
            memset(block, 1, size)
            return block
        }
        // Every other block stays in use, so no freed one can join the heap's top and be trimmed there.
        let (freed, kept) = (stride(from: 0, to: blocks.count, by: 2), stride(from: 1, to: blocks.count, by: 2))
        for index in freed { free(blocks[index]) }
        defer { for index in kept { free(blocks[index]) } }
        let before = try Self.residentBytes()

        let budget = MemoryBudget(total: 1 << 30)
        guard case .granted(let bytes) = budget.reserve(1000, giveUpWhen: { false }) else { return XCTFail("not granted") }
        budget.release(bytes)

        let returned = try before - Self.residentBytes()
        XCTAssertGreaterThan(returned, 48 * size, "resident memory went from \(before) down by only \(returned) bytes")
    }

    /// The process's resident bytes, as the kernel counts them (/proc/self/statm).
    private static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try XCTUnwrap(Int(fields[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
