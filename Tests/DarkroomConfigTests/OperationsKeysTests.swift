import XCTest
@testable import DarkroomConfig

/// `state_file:` and `metrics_file:`, the keys that say where the daemon publishes what it does.
final class OperationsKeysTests: XCTestCase {
    let watches = """
        watches:
          - path: ./inbox
            outputs:
              - path: ./outbox/{stem}.png
                chain: [invert]
        """

    func testRelativePathsResolveAgainstTheConfigFolderAndDefaultToNone() throws {
        let config = try parse("state_file: ./run/status.json\nmetrics_file: /var/lib/node_exporter/darkroom.prom\n" + watches)
        XCTAssertEqual(config.stateFile, "\(testBase)/run/status.json")
        XCTAssertEqual(config.metricsFile, "/var/lib/node_exporter/darkroom.prom")
        let plain = try parse(watches)
        XCTAssertNil(plain.stateFile)
        XCTAssertNil(plain.metricsFile)
    }

    func testAMetricsFileNodeExporterWouldIgnoreIsRefused() {
        assertSingle(diagnostics("metrics_file: ./darkroom.txt\n" + watches), at: (1, 15),
                     "metrics_file", "reads only files ending in .prom")
    }
}
