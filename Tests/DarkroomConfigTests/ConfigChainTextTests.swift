@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// ``ConfigChainText``: the preview's save finds one output's chain in a config's text and
/// replaces only its lines; every other byte of the file (comments, blank lines, the other
/// watches and outputs, what follows the chain) stays as it was.
final class ConfigChainTextTests: XCTestCase {
    static let config = """
        # darkroom config: comments and layout must survive a save
        workers: 2   # two cores

        watches:
          - name: photos
            path: ./inbox
            outputs:
              - path: ./out/{stem}.jpg
                chain:
                  - resize: { width: 800, kernel: lanczos3 }
                  - sepia: { intensity: random }
                quality: 80
              - path: ./out/{stem}-small.png   # the small one
                # its chain, below
                chain:
                  - resize:
                      width: 120
                      fit: inside
                  - invert

                # a comment after the chain belongs to what follows
                format: png
          - name: scans
            path: ./scans
            outputs:
              - chain:
                  - grayscale
                path: ./out/scans/{stem}.png
        log: { level: info }
        """

    func testFindsTheStepsAsWrittenWithTheirArguments() throws {
        let found = try ConfigChainText(text: Self.config, watch: 0, output: 1)
        XCTAssertEqual(found.steps.map(\.name), ["resize", "invert"])
        XCTAssertEqual(found.steps[0].arguments.map(\.name), ["width", "fit"])
        XCTAssertEqual(found.steps[0].arguments.map(\.value), [.scalar("120"), .scalar("inside")])
        XCTAssertTrue(found.steps[1].arguments.isEmpty)
        // From the `chain:` key to the last step; the blank and comment lines after it are not the chain's.
        XCTAssertEqual(found.lines, 15...19)

        let first = try ConfigChainText(text: Self.config, watch: 0, output: 0)
        XCTAssertEqual(first.steps.map(\.name), ["resize", "sepia"])
        XCTAssertEqual(first.steps[1].arguments.map(\.value), [.scalar("random")])
        XCTAssertEqual(first.lines, 9...11)
    }

    func testReplacingChangesOnlyThatChainsLines() throws {
        let found = try ConfigChainText(text: Self.config, watch: 0, output: 1)
        let saved = found.replacing(in: Self.config, with: ["sepia: { intensity: 0.5 }", "blur"])
        let old = Self.config.components(separatedBy: "\n"), new = saved.components(separatedBy: "\n")
        let expected = Array(old[..<14]) + [
            "        chain:",
            "          - sepia: { intensity: 0.5 }",
            "          - blur",
        ] + Array(old[19...])
        XCTAssertEqual(new, expected)
        XCTAssertTrue(saved.contains("workers: 2   # two cores\n\nwatches:"), "the head of the file, blank line and all")
        XCTAssertTrue(saved.hasSuffix("log: { level: info }"), "the end of the file, without a newline added")

        // The result is a config whose chain reads back as written and whose other chains are unchanged.
        let reread = try ConfigChainText(text: saved, watch: 0, output: 1)
        XCTAssertEqual(reread.steps.map(\.name), ["sepia", "blur"])
        XCTAssertEqual(reread.steps[0].arguments.map(\.value), [.scalar("0.5")])
        XCTAssertEqual(try ConfigChainText(text: saved, watch: 0, output: 0).steps.map(\.name), ["resize", "sepia"])
        XCTAssertEqual(try ConfigChainText(text: saved, watch: 1, output: 0).steps.map(\.name), ["grayscale"])
    }

    func testAChainOpeningItsOutputKeepsTheListDash() throws {
        // `- chain:` starts the output's mapping: the dash stays, the steps are indented under the key.
        let found = try ConfigChainText(text: Self.config, watch: 1, output: 0)
        XCTAssertEqual(found.lines, 26...27)
        let saved = found.replacing(in: Self.config, with: ["grayscale", "invert"])
        let new = saved.components(separatedBy: "\n"), old = Self.config.components(separatedBy: "\n")
        XCTAssertEqual(Array(new[25...27]), ["      - chain:", "          - grayscale", "          - invert"])
        XCTAssertEqual(Array(new[..<25]), Array(old[..<25]))
        XCTAssertEqual(Array(new[28...]), Array(old[27...]))
        XCTAssertEqual(try ConfigChainText(text: saved, watch: 1, output: 0).steps.map(\.name), ["grayscale", "invert"])
    }

    func testAFlowListOnTheKeyLineBecomesABlockList() throws {
        let text = "watches:\n  - path: ./in\n    outputs:\n      - path: ./out/{stem}.png\n        chain: [sepia, invert]   # warm\n        format: png\n"
        let found = try ConfigChainText(text: text, watch: 0, output: 0)
        XCTAssertEqual(found.steps.map(\.name), ["sepia", "invert"])
        XCTAssertEqual(found.lines, 5...5)
        XCTAssertEqual(found.replacing(in: text, with: ["blur"]),
                       "watches:\n  - path: ./in\n    outputs:\n      - path: ./out/{stem}.png\n        chain:\n          - blur\n        format: png\n")
    }

    func testAnOutputOnOneLineIsRefusedWithHowToWriteIt() {
        let text = "watches:\n  - path: ./in\n    outputs:\n      - { path: \"./out/{stem}.png\", chain: [sepia] }\n"
        XCTAssertThrowsError(try ConfigChainText(text: text, watch: 0, output: 0)) { error in
            let message = (error as? ConfigError)?.description ?? "\(error)"
            XCTAssertTrue(message.contains("watches[0].outputs[0] is written on one line"), message)
            XCTAssertTrue(message.contains("write its chain: as a block list"), message)
        }
    }

    func testWhatIsMissingOrNotAListIsSaid() {
        func message(_ text: String, _ watch: Int, _ output: Int) -> String {
            do throws(ConfigError) {
                _ = try ConfigChainText(text: text, watch: watch, output: output)
                return "accepted"
            } catch { return error.description }
        }
        XCTAssertTrue(message(Self.config, 2, 0).contains("the config has no watches[2].outputs[0].chain"))
        XCTAssertTrue(message(Self.config, 0, 5).contains("the config has no watches[0].outputs[5].chain"))
        let noChain = "watches:\n  - path: ./in\n    outputs:\n      - path: ./out/{stem}.png\n"
        XCTAssertTrue(message(noChain, 0, 0).contains("the config has no watches[0].outputs[0].chain"))
        let scalar = "watches:\n  - path: ./in\n    outputs:\n      - path: ./out/{stem}.png\n        chain: sepia\n"
        XCTAssertTrue(message(scalar, 0, 0).contains("watches[0].outputs[0].chain is not a list"))
        // A YAML syntax error is said with its place in the file.
        XCTAssertTrue(message("watches: [\n", 0, 0).range(of: #"^config:[1-9][0-9]*:[0-9]+: "#, options: .regularExpression) != nil,
                      message("watches: [\n", 0, 0))
    }
}
