import XCTest
@testable import DarkroomConfig

/// `thumbnails` and `thumbnails_dir`: the daemon's pictures for the contact sheet.
final class ThumbnailKeysTests: XCTestCase {
    func testDefaultsSizeOffAndFolder() throws {
        let plain = try parse("watches: [{ path: ./inbox, reports_dir: ./var/reports, outputs: [{ path: './out/{stem}.png' }] }]")
        XCTAssertEqual(plain.watches[0].thumbnailBox, 160, "the sheet's default size, so its sheet takes them as they are")
        XCTAssertEqual(plain.watches[0].thumbnailsDirectory, "/srv/darkroom/var/thumbnails", "beside the reports folder")

        let set = try parse("watches: [{ path: ./inbox, thumbnails: 320, thumbnails_dir: ./pics, outputs: [{ path: './out/{stem}.png' }] }]")
        XCTAssertEqual(set.watches[0].thumbnailBox, 320)
        XCTAssertEqual(set.watches[0].thumbnailsDirectory, "/srv/darkroom/pics")

        let off = try parse("watches: [{ path: ./inbox, thumbnails: false, outputs: [{ path: './out/{stem}.png' }] }]")
        XCTAssertNil(off.watches[0].thumbnailBox)
    }

    func testBadSizeAndAFolderInsideAWatchAreSaid() {
        assertSingle(diagnostics("""
            watches:
              - path: ./inbox
                thumbnails: 8
                outputs: [{ path: './out/{stem}.png' }]
            """), at: (3, 17), "watches[0].thumbnails: expected the thumbnails' size in pixels (32 to 1024) or false, got \"8\"")
        assertSingle(diagnostics("""
            watches:
              - path: ./inbox
                thumbnails_dir: ./inbox/pics
                outputs: [{ path: './out/{stem}.png' }]
            """), at: (3, 21), "watches[0].thumbnails_dir: /srv/darkroom/inbox/pics lies inside the watched folder")
        // Off: the folder is not written, so it is not checked.
        XCTAssertNoThrow(try parse("""
            watches:
              - path: ./inbox
                thumbnails: off
                thumbnails_dir: ./inbox/pics
                outputs: [{ path: './out/{stem}.png' }]
            """))
    }
}
