import XCTest
@testable import DarkroomConfig

/// The `cluster:` section: its sources for the connection string, its defaults, and errors
/// that point at the value.
final class ClusterConfigTests: XCTestCase {
    func testWithoutAClusterSectionTheDaemonRunsAlone() throws {
        XCTAssertNil(try parse(minimalConfig).cluster)
    }

    func testEveryKeyAndItsDefaults() throws {
        let full = try XCTUnwrap(try parse("""
            cluster:
              database: host=db.example dbname=darkroom
              node: render-2
              scan_interval: 0.5
              lease: 20
              max_attempts: 3
              keep_done_days: 30
            """ + "\n" + minimalConfig).cluster)
        XCTAssertEqual(full, ClusterConfig(database: .inline("host=db.example dbname=darkroom"), node: "render-2",
                                           scanInterval: 0.5, leaseSeconds: 20, maxAttempts: 3, keepDoneDays: 30))
        let defaults = try XCTUnwrap(try parse("cluster: { database_env: DARKROOM_DB }\n" + minimalConfig).cluster)
        XCTAssertEqual(defaults.database, .environment("DARKROOM_DB"))
        XCTAssertEqual(defaults.node, ConfigDecoder.hostName(), "the node is named after the host by default")
        XCTAssertEqual([defaults.scanInterval, defaults.leaseSeconds], [2, 30])
        XCTAssertEqual([defaults.maxAttempts, defaults.keepDoneDays], [5, 7])
    }

    func testTheConnectionStringCanStayOutOfTheConfig() throws {
        XCTAssertEqual(try parse("cluster: { database_file: secrets/db }\n" + minimalConfig).cluster?.database,
                       .file(testBase + "/secrets/db"), "a relative file is relative to the config")
        XCTAssertEqual(try parse("cluster: { database_credential: darkroom-db }\n" + minimalConfig).cluster?.database,
                       .credential("darkroom-db"))
    }

    func testTheDatabaseMustBeGivenExactlyOnce() {
        assertSingle(diagnostics("cluster: { node: a }\n" + minimalConfig), at: (1, 10),
                     "cluster: missing the database", "database_env")
        assertSingle(diagnostics("cluster:\n  database: x\n  database_env: DB\n" + minimalConfig), at: (3, 17),
                     "give the database once, not with both database and database_env")
    }

    func testBadValuesPointAtThemselves() {
        assertSingle(diagnostics("cluster: { database: x, node: 'a b' }\n" + minimalConfig), at: (1, 31),
                     "cluster.node: expected a node name")
        assertSingle(diagnostics("cluster: { database: x, lease: 0.5 }\n" + minimalConfig), at: (1, 32),
                     "cluster.lease: expected a number of seconds from 1.0 to 3600")
        assertSingle(diagnostics("cluster: { database_env: 'my-db' }\n" + minimalConfig), at: (1, 26),
                     "cluster.database_env: expected the name of an environment variable")
        assertSingle(diagnostics("cluster: { database_credential: a/b }\n" + minimalConfig), at: (1, 33),
                     "cannot hold \"/\"")
        assertSingle(diagnostics("cluster: { database: x, scan_intervall: 1 }\n" + minimalConfig), at: (1, 25),
                     "cluster.scan_intervall: unknown key", "scan_interval")
    }
}
