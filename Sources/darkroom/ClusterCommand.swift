import ArgumentParser
import DarkroomConfig
import DarkroomDaemon
import Foundation

/// `darkroom cluster`: the PostgreSQL side of cluster mode (`cluster:` in the config).
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Set up and inspect the PostgreSQL database that darkroom nodes share.",
        subcommands: [Init.self, Status.self, Bench.self]
    )

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or migrate the cluster's tables (nodes also do it when they start).",
            discussion: "Safe to run at any time and from several machines at once: migrations run under an advisory lock.")

        @Option(name: .shortAndLong, help: "A config with a cluster: section.", completion: .file(extensions: ["yaml", "yml"]))
        var config: String

        func run() throws {
            let db = try ClusterCommand.connect(config)
            do {
                switch try ClusterSchema.migrate(db) {
                case .upToDate(let version): print("the cluster schema is up to date (version \(version))")
                case .migrated(0, let to): print("created the cluster schema (version \(to))")
                case .migrated(let from, let to): print("migrated the cluster schema from version \(from) to \(to)")
                }
            } catch {
                printError("\(error)")
                throw ExitCode.failure
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the cluster: nodes and their last heartbeat, queue depth per watch, jobs in flight per node, failures.")

        @Option(name: .shortAndLong, help: "A config with a cluster: section.", completion: .file(extensions: ["yaml", "yml"]))
        var config: String

        func run() throws {
            guard Self.printCluster(config) else { throw ExitCode.failure }
        }

        /// Prints the cluster's picture (also the first block of `darkroom status` on a node);
        /// returns false, after saying why, when the database cannot tell.
        @discardableResult
        static func printCluster(_ config: String) -> Bool {
            guard let db = try? ClusterCommand.connect(config), let loaded = try? ConfigChoice.load(config) else { return false }
            do {
                print(ClusterStatusText.render(try ClusterSnapshot.read(db), lease: loaded.cluster?.leaseSeconds ?? 30))
                return true
            } catch {
                printError("cannot read the cluster's state: \(error) (run `darkroom cluster init` first?)")
                return false
            }
        }
    }

    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure the claim/ack cycles per second the database sustains (on an idle cluster).",
            discussion: "Inserts --jobs jobs of its own, claims and finishes them from --clients connections with the workers' statements, and deletes them.")

        @Option(name: .shortAndLong, help: "A config with a cluster: section.", completion: .file(extensions: ["yaml", "yml"]))
        var config: String
        @Option(help: "Jobs to claim and finish.") var jobs = 5000
        @Option(help: "Connections claiming at once (workers across all nodes).") var clients = 4

        func run() throws {
            let loaded = try ConfigChoice.load(config)
            guard let cluster = loaded.cluster else {
                printError("\(config) has no cluster: section")
                throw ExitCode(78)
            }
            do {
                let r = try ClaimBenchmark.run(conninfo: try ConnectionString.resolve(cluster.database),
                                               jobs: max(1, jobs), clients: max(1, clients))
                print(String(format: "%d claim/ack cycles from %d connections in %.2f s: %.0f jobs/s; %.2f ms per claim+ack as one worker sees it",
                             r.jobs, r.clients, r.seconds, r.cyclesPerSecond, r.millisecondsPerCycle))
            } catch {
                printError("\(error)")
                throw ExitCode.failure
            }
        }
    }

    /// Loads `path`, requires its `cluster:` section and connects to its database.
    static func connect(_ path: String) throws -> PGConnection {
        let loaded = try ConfigChoice.load(path)
        guard let cluster = loaded.cluster else {
            printError("\(path) has no cluster: section (cluster: { database: …, node: … })")
            throw ExitCode(78)
        }
        do {
            return try PGConnection(conninfo: try ConnectionString.resolve(cluster.database), application: "darkroom cli")
        } catch {
            printError("cannot connect to the cluster's database: \(error)")
            throw ExitCode.failure
        }
    }
}
