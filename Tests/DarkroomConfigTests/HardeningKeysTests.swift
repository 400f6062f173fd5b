@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// The keys issue 6 added: `limits.max_memory`, `limits.max_seconds`, a watch's `on_conflict`.
final class HardeningKeysTests: XCTestCase {
    func testTheNewKeysAreReadWithTheirDefaults() throws {
        let given = try parse("""
            limits: { max_memory: 1GiB, max_seconds: 0.5 }
            watches:
              - path: ./in
                on_conflict: fail
                outputs: [ { path: "./out/{dir}/{stem}.png" } ]
            """)
        XCTAssertEqual(given.limits.maxMemory, 1 << 30)
        XCTAssertEqual(given.limits.maxSeconds, 0.5)
        XCTAssertEqual(given.watches[0].onConflict, .fail)

        let defaults = try parse("watches:\n  - path: ./in\n    outputs: [ { path: \"./out/x-{stem}.png\" } ]\n")
        XCTAssertNil(defaults.limits.maxMemory, "from the cgroup at start-up")
        XCTAssertEqual(defaults.limits.maxSeconds, 120)
        XCTAssertEqual(defaults.watches[0].onConflict, .number, "nothing is silently lost by default")
    }

    func testBadValuesPointAtTheValue() {
        assertSingle(diagnostics("""
            limits: { max_seconds: 0 }
            watches: [ { path: ./in, outputs: [ { path: "./out/x-{stem}.png" } ] } ]
            """), at: (1, 24), "limits.max_seconds", "expected a number of seconds")
        assertSingle(diagnostics("""
            watches:
              - path: ./in
                on_conflict: rename
                outputs: [ { path: "./out/x-{stem}.png" } ]
            """), at: (3, 18), "on_conflict", "expected one of overwrite, number, fail")
        assertSingle(diagnostics("""
            limits: { max_memory: lots }
            watches: [ { path: ./in, outputs: [ { path: "./out/x-{stem}.png" } ] } ]
            """), at: (1, 23), "limits.max_memory", "expected a size")
    }
}
