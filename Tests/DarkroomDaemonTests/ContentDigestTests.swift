import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest
@testable import DarkroomDaemon

/// A file read in place is hashed on a thread of its own while the job goes on: the digest is
/// the file's, a read that fails says so, and a job whose input could not be hashed fails with
/// that read error (its report never carries a hash of part of the file).
final class ContentDigestTests: XCTestCase {
    func testADescriptorIsHashedAsAWholeBufferIs() throws {
        let folder = TemporaryFolder()
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }  // three 1 MiB reads
        let path = folder.write("data.bin", bytes)
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let digest = ContentDigest(descriptor: fd, size: bytes.count, path: path)
        XCTAssertEqual(try digest.value(), SHA256.hex(bytes))
        XCTAssertEqual(try digest.value(), SHA256.hex(bytes), "asked twice, the same answer")
    }

    func testAReadThatFailsIsAFileError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("sub")
        XCTAssertEqual(mkdir(path, 0o755), 0)
        let fd = open(path, O_RDONLY | O_DIRECTORY)  // pread on a folder: EISDIR
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertThrowsError(try ContentDigest(descriptor: fd, size: 10, path: path).value()) {
            XCTAssertEqual($0 as? FileError, FileError("read", path, errno: EISDIR))
        }
    }

    func testAJobWhoseInputCannotBeHashedFailsWithTheReadError() throws {
        let folder = TemporaryFolder()
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))
        let input = folder.write("card.png", try encodedCard(width: 20, height: 10, format: .png))
        let spec = JobRunner.Spec(inputPath: input, naming: .init(relativePath: "card.png", watchName: "w", mirrorFolders: false),
                                  outputs: [OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: try chain([("invert", [])]))],
                                  seed: nil, owner: nil)
        let failure = FileError("read", input, errno: EIO)
        let outcome = runner.run(input: ImageInput(try FileIO.read(input)), sha256: { () throws(FileError) -> String in throw failure },
                                 spec: spec, budget: nil, shouldAbandon: { false })
        guard case .finished(let report) = outcome else { return XCTFail("abandoned") }
        XCTAssertEqual(report.status, JobReport.Status.failed)
        XCTAssertEqual(report.error?.code, CodecError.Code.io.rawValue)
        XCTAssertEqual(report.error?.message, failure.description)
        XCTAssertNil(report.input.sha256)

        let hashed = runner.run(input: ImageInput(try FileIO.read(input)), sha256: { () throws(FileError) -> String in "abc" },
                                spec: spec, budget: nil, shouldAbandon: { false })
        guard case .finished(let ok) = hashed else { return XCTFail("abandoned") }
        XCTAssertEqual(ok.status, JobReport.Status.ok)
        XCTAssertEqual(ok.input.sha256, "abc")
    }
}
