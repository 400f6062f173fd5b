import DarkroomTestSupport
import Dispatch
import Foundation
import XCTest
@testable import DarkroomDaemon

/// The cluster's statements against a real PostgreSQL: claims, leases, fencing, ingest.
final class ClusterStoreTests: XCTestCase {
    /// One server for the class (initdb costs seconds); each test starts from empty tables.
    nonisolated(unsafe) private static var shared: PostgresServer?
    private var server: PostgresServer { Self.shared! }
    private var db: PGConnection!

    override class func tearDown() {
        shared = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        if Self.shared == nil {
            Self.shared = try PostgresServer()
            let fresh = try PGConnection(conninfo: server.conninfo, application: "test")
            XCTAssertEqual(try ClusterSchema.migrate(fresh), .migrated(from: 0, to: ClusterSchema.currentVersion))
        }
        db = try PGConnection(conninfo: server.conninfo, application: "test")
        XCTAssertEqual(try ClusterSchema.migrate(db), .upToDate(version: ClusterSchema.currentVersion))
        try db.query("TRUNCATE darkroom_jobs, darkroom_nodes")
    }

    override func tearDown() {
        db = nil
    }

    private func files(_ n: Int, from start: Int = 0) -> [(relative: String, stamp: FileStamp)] {
        (start..<start + n).map { ("f\($0).png", FileStamp(size: Int64($0), modifiedNanoseconds: 7, inode: Int64($0))) }
    }

    func testAFileIsInsertedOncePerContentAndNewContentIsANewJob() throws {
        XCTAssertEqual(try ClusterStore.insert(db, watch: "w", files: files(3)), 3)
        XCTAssertEqual(try ClusterStore.insert(db, watch: "w", files: files(4)), 1, "only the new one")
        let rewritten = [(relative: "f0.png", stamp: FileStamp(size: 99, modifiedNanoseconds: 8, inode: 0))]
        XCTAssertEqual(try ClusterStore.insert(db, watch: "w", files: rewritten), 1, "same name, new size and time")
        XCTAssertEqual(try ClusterStore.insert(db, watch: "other", files: files(1)), 1, "another watch's file")
        // Names with quotes, backslashes, commas and braces survive the array literal.
        let odd = [(relative: "a \"b\\c\", {d}.png", stamp: FileStamp(size: 1, modifiedNanoseconds: 1, inode: 1))]
        XCTAssertEqual(try ClusterStore.insert(db, watch: "w", files: odd), 1)
        XCTAssertEqual(try db.query("SELECT count(*) FROM darkroom_jobs WHERE path = $1", [odd[0].relative]).scalar, "1")
    }

    func testConcurrentClaimersNeverGetTheSameJob() throws {
        XCTAssertEqual(try ClusterStore.insert(db, watch: "w", files: files(300)), 300)
        let claimed = Locked([Int64]())
        let failures = Locked([String]())
        let conninfo = server.conninfo
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            do {
                let mine = try PGConnection(conninfo: conninfo, application: "claimer \(i)")
                while let job = try ClusterStore.claim(mine, node: "n\(i)", leaseSeconds: 30) {
                    claimed.withLock { $0.append(job.id) }
                    if try !ClusterStore.finish(mine, job, status: "ok", error: nil) { failures.withLock { $0.append("ack \(job.id)") } }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.current, [])
        XCTAssertEqual(claimed.current.count, 300)
        XCTAssertEqual(Set(claimed.current).count, 300, "no job claimed twice")
    }

    func testAnExpiredLeaseGoesToTheNextClaimerAndFencesTheOldHolderOut() throws {
        _ = try ClusterStore.insert(db, watch: "w", files: files(1))
        let first = try XCTUnwrap(try ClusterStore.claim(db, node: "a", leaseSeconds: 1))
        XCTAssertNil(try ClusterStore.claim(db, node: "b", leaseSeconds: 1), "a live lease is not claimed")
        XCTAssertTrue(try ClusterStore.renew(db, first, leaseSeconds: 1))
        usleep(1_200_000)
        let second = try XCTUnwrap(try ClusterStore.claim(db, node: "b", leaseSeconds: 30), "an expired lease returns to the queue")
        XCTAssertEqual(second.id, first.id)
        XCTAssertGreaterThan(second.token, first.token)
        XCTAssertEqual(second.attempts, 2)
        XCTAssertFalse(try ClusterStore.renew(db, first, leaseSeconds: 30), "the old holder's heartbeat finds zero rows")
        XCTAssertFalse(try ClusterStore.finish(db, first, status: "ok", error: nil), "and so does its ack")
        XCTAssertFalse(try ClusterStore.requeue(db, first, afterSeconds: 0, error: "x"))
        XCTAssertTrue(try ClusterStore.finish(db, second, status: "ok", error: nil))
        XCTAssertEqual(try db.query("SELECT state, node, status FROM darkroom_jobs").rows, [["done", "b", "ok"]])
    }

    func testARequeuedJobWaitsForItsBackoff() throws {
        _ = try ClusterStore.insert(db, watch: "w", files: files(1))
        let job = try XCTUnwrap(try ClusterStore.claim(db, node: "a", leaseSeconds: 30))
        XCTAssertTrue(try ClusterStore.requeue(db, job, afterSeconds: 60, error: "disk full"))
        XCTAssertNil(try ClusterStore.claim(db, node: "a", leaseSeconds: 30), "not due yet")
        try db.query("UPDATE darkroom_jobs SET not_before = now()")
        let again = try XCTUnwrap(try ClusterStore.claim(db, node: "a", leaseSeconds: 30))
        XCTAssertEqual(again.lastError, "disk full")
        XCTAssertEqual(again.attempts, 2)
        XCTAssertTrue(try ClusterStore.requeue(db, again, afterSeconds: 0, error: "open for writing", counts: false))
        XCTAssertEqual(try XCTUnwrap(try ClusterStore.claim(db, node: "a", leaseSeconds: 30)).attempts, 2,
                       "a file still being written costs no attempt")
    }

    func testALeaseIsKnownLostLocallyOnceItsTimeRanOutOrItWasTakenOver() {
        let job = ClaimedJob(id: 1, watch: "w", relative: "f", stamp: FileStamp(size: 1, modifiedNanoseconds: 1, inode: 1),
                             token: 1, attempts: 1, queuedAt: Date())
        let lease = JobLease(job: job, leaseSeconds: 0.25, sentAt: JobLease.now())
        XCTAssertTrue(lease.isHeld)
        usleep(300_000)
        XCTAssertFalse(lease.isHeld, "counted from when the claim was sent, with a margin")
        lease.renewed(leaseSeconds: 10, sentAt: JobLease.now())
        XCTAssertTrue(lease.isHeld)
        lease.lose()
        XCTAssertFalse(lease.isHeld)
        XCTAssertTrue(lease.wasTakenOver)
    }

    func testAnUnreachableServerIsAConnectionErrorNotACrash() throws {
        try server.stop()
        XCTAssertThrowsError(try db.query("SELECT 1")) { error in
            XCTAssertTrue((error as? PGError)?.connectionLost == true, "\(error)")
        }
        XCTAssertThrowsError(try PGConnection(conninfo: server.conninfo, application: "test")) { error in
            XCTAssertTrue((error as? PGError)?.connectionLost == true, "\(error)")
        }
        try server.start()
        XCTAssertEqual(try PGConnection(conninfo: server.conninfo, application: "test").query("SELECT 1").scalar, "1")
    }
}
