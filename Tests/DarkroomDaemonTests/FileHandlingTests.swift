import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

final class AtomicFileTests: XCTestCase {
    func testWritesANewFileAndLeavesNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        try AtomicFile.write(Array("hello".utf8), to: folder.file("out/deep/a.txt"))
        XCTAssertEqual(try FileIO.read(folder.file("out/deep/a.txt")), Array("hello".utf8))
        XCTAssertEqual(folder.listing(), ["out/deep/a.txt"])
    }

    func testReplacesAnExistingFileWhole() throws {
        let folder = TemporaryFolder()
        let target = folder.write("a.txt", Array(repeating: UInt8(ascii: "x"), count: 10_000))
        try AtomicFile.write(Array("short".utf8), to: target)
        XCTAssertEqual(try FileIO.read(target), Array("short".utf8), "no tail of the old content")
        XCTAssertEqual(folder.listing(), ["a.txt"])
    }

    func testLeftoversOfAKilledWriterAreRemovedAndNothingElse() {
        let folder = TemporaryFolder()
        folder.write("out/a.jpg", [1])
        folder.write("out/.darkroom-a.jpg.Xy12Ab.tmp", [2])
        folder.write("out/sub/.darkroom-b.png.Qq34Cd.tmp", [3])
        folder.write("out/.hidden.tmp", [4])
        folder.write("out/.darkroom-notes.txt", [5])
        XCTAssertEqual(AtomicFile.removeLeftovers(below: folder.file("out")), 2)
        XCTAssertEqual(folder.listing("out"), [".darkroom-notes.txt", ".hidden.tmp", "a.jpg"])
        XCTAssertEqual(AtomicFile.removeLeftovers(below: folder.file("missing")), 0)
    }

    func testAFailedWriteLeavesNothingBehindAndSaysWhy() {
        let folder = TemporaryFolder()
        folder.write("blocker", [1])
        // A folder that is a file: the write must fail (root ignores permissions, not this).
        XCTAssertThrowsError(try AtomicFile.write([1, 2, 3], to: folder.file("blocker/out.jpg"))) { error in
            let e = error as? FileError
            XCTAssertEqual(e?.errno, ENOTDIR)
            XCTAssertTrue(e?.description.contains("Not a directory") == true, e?.description ?? "")
        }
        XCTAssertEqual(folder.listing(), ["blocker"])
    }
}

final class InputDispositionTests: XCTestCase {
    func testMoveKeepsEarlierFilesOfTheSameName() throws {
        let folder = TemporaryFolder()
        let first = folder.write("in/a.jpg", [1])
        XCTAssertEqual(try InputDisposition.move(first, to: folder.file("done/a.jpg")), folder.file("done/a.jpg"))
        let second = folder.write("in/a.jpg", [2])
        XCTAssertEqual(try InputDisposition.move(second, to: folder.file("done/a.jpg")), folder.file("done/a-1.jpg"))
        XCTAssertEqual(folder.listing(), ["done/a-1.jpg", "done/a.jpg"])
        XCTAssertEqual(try FileIO.read(folder.file("done/a.jpg")), [1])
    }
}

final class SHA256Tests: XCTestCase {
    func testKnownDigests() {
        // FIPS 180-2 test vectors.
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

final class ProcessedOnceRuleTests: XCTestCase {
    func report(sha: String?, status: JobReport.Status) -> JobReport {
        let now = Date()
        return JobReport(watch: "w", input: .init(path: "/in/a.jpg", bytes: 1, sha256: sha),
                         timings: .init(queued: now, started: now, finished: now, decode: 0, encode: 0, total: 0),
                         status: status)
    }

    func testAReportForTheSameContentMeansDone() {
        XCTAssertEqual(ProcessedOnceRule.decide(existingReport: report(sha: "aa", status: .ok), inputSHA256: "aa"), .finish(.ok))
        XCTAssertEqual(ProcessedOnceRule.decide(existingReport: report(sha: "aa", status: .failed), inputSHA256: "aa"), .finish(.failed))
    }

    func testNoReportOrOtherContentMeansProcess() {
        XCTAssertEqual(ProcessedOnceRule.decide(existingReport: nil, inputSHA256: "aa"), .process)
        XCTAssertEqual(ProcessedOnceRule.decide(existingReport: report(sha: "bb", status: .ok), inputSHA256: "aa"), .process,
                       "a new file under an old name")
        XCTAssertEqual(ProcessedOnceRule.decide(existingReport: report(sha: nil, status: .failed), inputSHA256: "aa"), .process)
    }
}
