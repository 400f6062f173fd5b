import DarkroomCore
import Dispatch
import Foundation

/// `darkroom cluster bench`: how many claim/ack cycles per second one PostgreSQL sustains, with
/// the very statements the workers use (``ClusterStore/claim`` and ``ClusterStore/finish``),
/// so docs/cluster.md's "how many nodes one database serves" is a measurement, not a guess.
///
/// It inserts `jobs` rows under a watch of its own, lets `clients` connections claim and finish
/// them as fast as they can, and deletes them again. It refuses to run while the cluster is in
/// use (a live node would claim its rows, and its rows would delay real jobs).
public enum ClaimBenchmark {
    public struct Result: Sendable {
        public var jobs: Int
        public var clients: Int
        public var seconds: Double
        /// Mean time of one claim plus one ack, as one client sees it.
        public var millisecondsPerCycle: Double
        public var cyclesPerSecond: Double { Double(jobs) / seconds }
    }

    public struct Refused: Error, CustomStringConvertible {
        public var description: String
    }

    public static func run(conninfo: String, jobs: Int, clients: Int) throws -> Result {
        let db = try PGConnection(conninfo: conninfo, application: "darkroom cluster bench")
        try ClusterSchema.migrate(db)
        let busy = Int(try db.query("""
            SELECT (SELECT count(*) FROM darkroom_jobs WHERE state <> 'done')
                 + (SELECT count(*) FROM darkroom_nodes WHERE stopped_at IS NULL AND heartbeat_at > now() - interval '2 minutes')
            """).scalar ?? "0") ?? 0
        guard busy == 0 else {
            throw Refused(description: "the cluster is in use (live nodes or queued jobs); run the benchmark on an idle database")
        }
        let watch = "darkroom-bench-\(getpid())"
        defer { _ = try? db.query("DELETE FROM darkroom_jobs WHERE watch = $1", [watch]) }
        for start in stride(from: 0, to: jobs, by: 1000) {
            let files = (start..<min(jobs, start + 1000)).map {
                (relative: "bench/\($0).jpg", stamp: FileStamp(size: Int64($0), modifiedNanoseconds: 0, inode: Int64($0)))
            }
            _ = try ClusterStore.insert(db, watch: watch, files: files)
        }
        let group = DispatchGroup()
        let cycles = Locked((count: 0, seconds: 0.0))
        let failure = Locked<String?>(nil)
        let clock = Stopwatch()
        for i in 0..<clients {
            DedicatedThread.start(name: "darkroom-bench", group: group) {
                do {
                    let mine = try PGConnection(conninfo: conninfo, application: "darkroom cluster bench \(i)")
                    try ClusterStore.prepareWorkerSession(mine)
                    while true {
                        let cycle = Stopwatch()
                        guard let job = try ClusterStore.claim(mine, node: "bench-\(i)", leaseSeconds: 30) else { break }
                        _ = try ClusterStore.finish(mine, job, status: "ok", error: nil)
                        let seconds = cycle.seconds
                        cycles.withLock { $0.count += 1; $0.seconds += seconds }
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }
        }
        group.wait()
        let total = clock.seconds
        if let failure = failure.current { throw Refused(description: "a client failed: \(failure)") }
        let c = cycles.current
        return Result(jobs: c.count, clients: clients, seconds: total, millisecondsPerCycle: c.seconds / Double(max(1, c.count)) * 1000)
    }
}
