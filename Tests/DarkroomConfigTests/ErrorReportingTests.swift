@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// Each class of error: where it points (line, column) and what it says.
final class ErrorReportingTests: XCTestCase {
    func testDiagnosticDescriptionIsFileLineColumnMessage() {
        let d = ConfigDiagnostic(file: "config.yaml", line: 14, column: 11, message: "resize.width: expected an integer")
        XCTAssertEqual(d.description, "config.yaml:14:11: resize.width: expected an integer")
        let e = ConfigError(diagnostics: [d, ConfigDiagnostic(file: "c.yaml", line: 0, column: 0, message: "unreadable")])
        XCTAssertEqual(e.description, "config.yaml:14:11: resize.width: expected an integer\nc.yaml: unreadable")
    }

    func testYAMLSyntaxErrorPosition() {
        let diags = diagnostics("""
            workers: 2
            watches:
              - path: ./inbox
                outputs: [ { path: './out/{stem}.png' }
              - path: ./other
            """)
        XCTAssertEqual(diags.count, 1)
        XCTAssertEqual(diags.first?.line, 5)
        XCTAssertTrue(diags.first?.message.hasPrefix("YAML syntax: ") == true, "\(diags)")
    }

    func testUnquotedBracesInAFlowCollectionGetAHint() {
        let diags = diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: ./out/{stem}.png }]\n")
        XCTAssertEqual(diags.map(\.line), [3])
        XCTAssertTrue(diags.first?.message.contains("quote values that hold { }") == true, "\(diags)")
    }

    func testBadIntegerPointsAtTheValue() {
        assertSingle(diagnostics("workers: many\n" + minimalConfig), at: (1, 10),
                     "workers: expected an integer from 1 to 256, got \"many\"")
        assertSingle(diagnostics("workers: 0\n" + minimalConfig), at: (1, 10), "from 1 to 256, got \"0\"")
        assertSingle(diagnostics("queue_capacity: [1]\n" + minimalConfig), at: (1, 17), "got a list")
    }

    func testBadSizeAndEnumValues() {
        assertSingle(diagnostics("limits: { max_file_bytes: 12 parsecs }\n" + minimalConfig), at: (1, 27),
                     "limits.max_file_bytes: expected a size such as 256MiB")
        assertSingle(diagnostics("log: { level: verbose }\n" + minimalConfig), at: (1, 15),
                     "log.level: expected one of trace, debug, info, notice, warning, error, critical, got \"verbose\"")
        assertSingle(diagnostics("log:\n  format: jsno\n" + minimalConfig), at: (2, 11),
                     "log.format: expected one of text, json", "did you mean \"json\"?")
    }

    func testUnknownKeysAtEveryLevelSuggestTheNearest() {
        let diags = diagnostics("""
            wrokers: 2
            log: { levle: info }
            watches:
              - path: ./inbox
                recursve: true
                outputs:
                  - path: ./outbox/{stem}.png
                    qualty: 80
            """)
        XCTAssertEqual(diags.map { [$0.line, $0.column] }, [[1, 1], [2, 8], [5, 5], [8, 9]])
        XCTAssertEqual(diags.map(\.message), [
            "wrokers: unknown key (did you mean \"workers\"?)",
            "log.levle: unknown key (did you mean \"level\"?)",
            "watches[0].recursve: unknown key (did you mean \"recursive\"?)",
            "watches[0].outputs[0].qualty: unknown key (did you mean \"quality\"?)",
        ])
    }

    func testRepeatedKeyPointsAtTheSecond() {
        assertSingle(diagnostics("workers: 2\nworkers: 3\n" + minimalConfig), at: (2, 1),
                     "workers: given twice (first at line 1)")
    }

    func testMissingRequiredKeysPointAtTheirMapping() {
        assertSingle(diagnostics("workers: 2\n"), at: (1, 1), "missing \"watches\"")
        assertSingle(diagnostics("watches:\n  - path: ./inbox\n"), at: (2, 5),
                     "watches[0]: missing \"outputs\"")
        assertSingle(diagnostics("watches:\n  - outputs: [{ path: './o/{stem}.png' }]\n"), at: (2, 5),
                     "watches[0]: missing \"path\"")
        assertSingle(diagnostics("watches: []\n"), at: (1, 10), "watches: expected a list of at least one watch")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: []\n"), at: (3, 14),
                     "watches[0].outputs: expected a list of at least one output")
    }

    func testEmptyConfig() {
        assertSingle(diagnostics("# nothing yet\n"), at: (1, 1), "the config is empty")
    }

    func testOutputFormatProblems() {
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.bmp' }]\n"), at: (3, 23),
                     "watches[0].outputs[0].path: cannot tell the format from the extension \".bmp\"")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', format: jpeg }]\n"),
                     at: (3, 51), "format jpeg does not match the extension \".png\"")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', quality: 80 }]\n"),
                     at: (3, 52), "quality applies to jpeg, webp, avif, jxl and tiff only")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stme}.png' }]\n"), at: (3, 23),
                     "unknown placeholder {stme} (did you mean \"stem\"?)")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/latest.png' }]\n"), at: (3, 23),
                     "holds neither {stem} nor {name}")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jpg', quality: 101 }]\n"),
                     at: (3, 52), "quality: expected an integer from 1 to 100, got \"101\"")
    }

    func testWatchValueProblems() {
        let diags = diagnostics("""
            watches:
              - path: ./inbox
                name: a/b
                include: [ "*.jpg", "sub/*.png" ]
                on_success: archive
                settle_ms: -1
                seed: lucky
                outputs: [{ path: './out/{stem}.png' }]
            """)
        XCTAssertEqual(diags.map { [$0.line, $0.column] }, [[3, 11], [4, 25], [5, 17], [6, 16], [7, 11]])
        guard diags.count == 5 else { return }
        XCTAssertTrue(diags[0].message.contains("watches[0].name: a name is used in file paths"), diags[0].message)
        XCTAssertTrue(diags[1].message.contains("watches[0].include[1]: globs match file names"), diags[1].message)
        XCTAssertTrue(diags[2].message.contains("on_success: expected one of move, delete, keep, got \"archive\""), diags[2].message)
        XCTAssertTrue(diags[3].message.contains("settle_ms: expected an integer from 0 to 600000"), diags[3].message)
        XCTAssertTrue(diags[4].message.contains("seed: expected a whole number"), diags[4].message)
    }

    func testManyErrorsAreReportedTogetherInFileOrder() {
        let diags = diagnostics("""
            workers: 1000
            log: { format: xml }
            watches:
              - path: ./a
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - sepia: { intensity: 2 }
                      - blur
              - path: ./b
                outputs:
                  - path: ./out/b/{stem}.jpg
                    quality: high
            """)
        XCTAssertEqual(diags.map(\.line), [1, 2, 8, 9, 13])
        XCTAssertEqual(diags.count, 5, ConfigError(diagnostics: diags).description)
        XCTAssertEqual(ConfigError(diagnostics: diags).description.split(separator: "\n").count, 5)
    }
}
