@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// Every spelling of true and false docs/configuration.md promises for config switches, and the watch
/// names that cannot be used because `{watch}` puts them into paths.
final class BooleanAndNameTests: XCTestCase {
    func config(recursive: String) -> String {
        """
        watches:
          - path: ./inbox
            recursive: \(recursive)
            outputs:
              - path: ./outbox/{stem}.png
        """
    }

    func testEveryYAMLSpellingOfTrueAndFalseIsRead() throws {
        for (text, value) in [("true", true), ("yes", true), ("on", true), ("True", true), ("ON", true),
                              ("false", false), ("no", false), ("off", false), ("False", false), ("OFF", false)] {
            // A refusal fails here too: XCTAssertEqual reports an error thrown by its argument.
            XCTAssertEqual(try parse(config(recursive: text)).watches.first?.recursive, value, "recursive: \(text)")
        }
    }

    func testAnythingElseIsNotASwitch() {
        for text in ["1", "maybe", "enabled"] {
            assertSingle(diagnostics(config(recursive: text)), at: (3, 16), "recursive: expected true or false, got \"\(text)\"")
        }
    }

    func testAWatchNameThatIsNotAFolderNameIsRefusedWhereItIsWritten() {
        for name in [".", "..", "a/b", "../up"] {
            let yaml = """
                watches:
                  - name: "\(name)"
                    path: ./inbox
                    outputs:
                      - path: ./outbox/{watch}/{stem}.png
                """
            assertSingle(diagnostics(yaml), at: (2, 11), "watches[0].name", "cannot be \".\", \"..\" or hold \"/\"", "got \"\(name)\"")
        }
        XCTAssertEqual(try? parse("""
            watches:
              - name: ...
                path: ./inbox
                outputs:
                  - path: ./outbox/{watch}/{stem}.png
            """).watches.first?.name, "...", "three dots are an ordinary folder name")
    }
}
