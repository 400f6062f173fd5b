import XCTest
@testable import DarkroomConfig

/// Cross-checks between folders: the daemon must never take its own output as input.
final class FolderCheckTests: XCTestCase {
    func testOutputInsideAWatchedFolderIsRejected() {
        assertSingle(diagnostics("""
            watches:
              - path: ./inbox
                outputs:
                  - path: ./inbox/converted/{stem}.png
            """), at: (4, 15), "watches[0].outputs[0].path: /srv/darkroom/inbox/converted lies inside the watched folder /srv/darkroom/inbox")
    }

    func testOutputInsideAnotherWatchThroughTheWatchPlaceholderIsRejected() {
        let diags = diagnostics("""
            watches:
              - name: a
                path: ./in/a
                outputs: [{ path: "./in/{watch}x/{stem}.png" }]
              - name: ax
                path: ./in/ax
                outputs: [{ path: './out/{stem}.png' }]
            """)
        XCTAssertEqual(diags.map { [$0.line, $0.column] }, [[4, 23]])
        XCTAssertTrue(diags.first?.message.contains("inside the watched folder /srv/darkroom/in/ax (watches[1])") == true, "\(diags)")
    }

    func testDoneFailedAndReportsFoldersMustNotCoincideOrLieInAWatch() {
        let diags = diagnostics("""
            watches:
              - path: ./inbox
                done_dir: ./inbox/done
                failed_dir: ./archive
                reports_dir: ./archive/
                outputs: [{ path: './out/{stem}.png' }]
            """)
        XCTAssertEqual(diags.map(\.line), [3, 5])
        guard diags.count == 2 else { return }
        XCTAssertTrue(diags[0].message.hasPrefix("watches[0].done_dir: /srv/darkroom/inbox/done lies inside the watched folder"), diags[0].message)
        XCTAssertTrue(diags[1].message.hasPrefix("watches[0].reports_dir: is the same folder as failed_dir"), diags[1].message)
    }

    func testDoneFolderIsIgnoredWhenInputsAreNotMoved() throws {
        let config = try parse("""
            watches:
              - path: ./inbox
                on_success: delete
                done_dir: ./inbox
                outputs: [{ path: './out/{stem}.png' }]
            """)
        XCTAssertEqual(config.watches[0].onSuccess, .delete)
    }

    func testWatchedFolderEqualToAnotherWatchsFailedFolder() {
        let diags = diagnostics("""
            watches:
              - path: ./a
                outputs: [{ path: './out/a/{stem}.png' }]
              - path: ./failed
                outputs: [{ path: './out/f/{stem}.png' }]
            """)
        // The first watch's default failed folder (<path>/../failed) is the second watched folder.
        // The second watch's own default failed folder is itself, too.
        XCTAssertEqual(diags.map(\.line), [2, 4])
        guard diags.count == 2 else { return }
        XCTAssertTrue(diags[0].message.contains("watches[0].failed_dir: /srv/darkroom/failed lies inside the watched folder"), diags[0].message)
        XCTAssertTrue(diags[1].message.contains("watches[1].failed_dir: /srv/darkroom/failed lies inside the watched folder"), diags[1].message)
    }

    func testDuplicateNamesSameFolderTwiceAndNestedRecursiveWatches() {
        let diags = diagnostics("""
            watches:
              - path: ./in
                recursive: true
                outputs: [{ path: './out/1/{stem}.png' }]
              - path: ./in/sub
                outputs: [{ path: './out/2/{stem}.png' }]
                done_dir: ./d
                failed_dir: ./f
                reports_dir: ./r
              - path: ./other/sub
                outputs: [{ path: './out/3/{stem}.png' }]
              - path: ./in/
                name: in2
                outputs: [{ path: './out/4/{stem}.png' }]
            """)
        XCTAssertEqual(diags.map(\.line), [5, 10, 12])
        guard diags.count == 3 else { return }
        XCTAssertTrue(diags[0].message.contains("watches[1].path: lies inside /srv/darkroom/in, which watches[0] already watches recursively"), diags[0].message)
        XCTAssertTrue(diags[1].message.contains("watches[2].name: \"sub\" is already the name of watches[1]"), diags[1].message)
        XCTAssertTrue(diags[2].message.contains("watches[3].path: /srv/darkroom/in is already watched by watches[0]"), diags[2].message)
    }

    func testTwoOutputsWritingTheSameFiles() {
        assertSingle(diagnostics("""
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                  - path: ./out/./{stem}.png
                    chain: [invert]
            """), at: (5, 15), "watches[0].outputs[1].path: writes the same files as watches[0].outputs[0].path")
    }
}
