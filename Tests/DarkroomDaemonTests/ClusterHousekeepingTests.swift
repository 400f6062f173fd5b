import DarkroomTestSupport
import Logging
import XCTest
@testable import DarkroomDaemon

/// The node's prune and snapshot run on the boot clock, which starts near zero: they must not
/// wait ten minutes on a machine booted a minute ago.
final class ClusterHousekeepingTests: XCTestCase {
    private let minuteAfterBoot: UInt64 = 60_000_000_000

    func testAScheduleIsDueAtOnceEvenRightAfterBootThenOncePerInterval() {
        var schedule = Periodic(every: 600)
        XCTAssertTrue(schedule.due(now: minuteAfterBoot), "a node started a minute after boot does it at once")
        XCTAssertFalse(schedule.due(now: minuteAfterBoot + 1))
        XCTAssertFalse(schedule.due(now: minuteAfterBoot + 599_000_000_000))
        XCTAssertTrue(schedule.due(now: minuteAfterBoot + 600_000_000_000))
        var atBoot = Periodic(every: 5)
        XCTAssertTrue(atBoot.due(now: 1_000), "even a microsecond after boot")
    }

    func testANodeStartedAMinuteAfterBootPrunesAndReadsThePictureAtItsFirstTick() throws {
        let server = try PostgresServer()
        let db = try PGConnection(conninfo: server.conninfo, application: "test")
        _ = try ClusterSchema.migrate(db)
        try db.query("""
            INSERT INTO darkroom_jobs (watch, path, size, mtime_ns, inode, state, status, finished_at) VALUES
              ('w', 'old.png', 1, 1, 1, 'done', 'ok', now() - interval '8 days'),
              ('w', 'recent.png', 1, 1, 1, 'done', 'ok', now() - interval '1 day')
            """)
        let logger = Logger(label: "test")
        let session = DatabaseSession(conninfo: server.conninfo, application: "test", health: DatabaseHealth(logger: logger),
                                      logger: logger)
        let housekeeping = ClusterHousekeeping(session: session, keepDoneDays: 7, logger: logger)
        XCTAssertNil(housekeeping.picture.current)

        housekeeping.tick(now: minuteAfterBoot)
        XCTAssertEqual(try db.query("SELECT string_agg(path, ',' ORDER BY path) FROM darkroom_jobs").scalar, "recent.png",
                       "the row finished 8 days ago is pruned at once")
        XCTAssertEqual(housekeeping.picture.current?.watches.first?.done, 1, "the picture is read at once")

        // Another old row: the next prune is ten minutes on, the next picture five seconds on.
        try db.query("""
            INSERT INTO darkroom_jobs (watch, path, size, mtime_ns, inode, state, status, finished_at) VALUES
              ('w', 'old2.png', 1, 1, 1, 'done', 'ok', now() - interval '9 days')
            """)
        housekeeping.tick(now: minuteAfterBoot + 6_000_000_000)
        XCTAssertEqual(try db.query("SELECT count(*) FROM darkroom_jobs").scalar, "2", "not pruned again before ten minutes")
        XCTAssertEqual(housekeeping.picture.current?.watches.first?.done, 2, "the picture is read again after five seconds")
        housekeeping.tick(now: minuteAfterBoot + 601_000_000_000)
        XCTAssertEqual(try db.query("SELECT count(*) FROM darkroom_jobs").scalar, "1")
    }
}
