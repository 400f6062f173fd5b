import DarkroomCodecs
import XCTest
@testable import DarkroomConfig

/// Every entry of the output options' table is a config key: read where its format takes it,
/// refused with the formats it applies to elsewhere, its bad values named with what it takes.
final class OutputOptionKeysTests: XCTestCase {
    /// `{page}` in the path when `pages: all` might be written (it needs one).
    private func yaml(_ format: ImageFormat, _ key: String, _ value: String, pagePlaceholder: Bool = false) -> String {
        "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}\(pagePlaceholder ? "-{page}" : "").\(format.fileExtension)', \(key): \(value) }]\n"
    }

    /// A value each form takes (not its default, so reading it is seen).
    private func sample(_ kind: OutputOption.Kind) -> (text: String, value: OutputOption.Value) {
        switch kind {
        case .integer(let r): (String(r.upperBound), .integer(r.upperBound))
        case .integerChoice(let values): (String(values.last!), .integer(values.last!))
        case .number(let r): (String(r.lowerBound + 0.25 * (r.upperBound - r.lowerBound)),
                              .number(r.lowerBound + 0.25 * (r.upperBound - r.lowerBound)))
        case .boolean: ("true", .boolean(true))
        case .choice(let words): (words.last!, .word(words.last!))
        }
    }

    func testEveryOptionIsReadWhereItsFormatTakesIt() throws {
        for option in OutputOption.all {
            for form in option.forms {
                for format in form.formats {
                    let (text, value) = sample(form.kind)
                    let yaml = yaml(format, option.name, text, pagePlaceholder: true)
                    let encoding = try parse(yaml).watches[0].outputs[0].encoding
                    XCTAssertEqual(encoding[option], value, "\(option.name): \(text) for \(format)")
                }
            }
        }
    }

    func testEveryOptionIsRefusedWhereItsFormatHasNoUse() {
        for option in OutputOption.all {
            for format in ImageFormat.writableFormats where option.form(for: format) == nil {
                let (text, _) = sample(option.forms[0].kind)
                let diags = diagnostics(yaml(format, option.name, text))
                XCTAssertEqual(diags.count, 1, "\(diags)")
                let names = option.formats.map(\.rawValue)
                XCTAssertTrue(diags.first?.message.contains("\(option.name) applies to \(names.first!)") == true, "\(diags)")
                XCTAssertEqual(diags.first?.line, 3)
            }
        }
    }

    /// A value out of range names the range, at the value's line and column.
    func testABadValueSaysWhatTheOptionTakes() {
        assertSingle(diagnostics(yaml(.jpeg, "quality", "101")), at: (3, 52), "quality: expected an integer from 1 to 100, got \"101\"")
        assertSingle(diagnostics(yaml(.jpeg, "chroma", "422")), at: (3, 51), "chroma: expected one of auto, 420, 444, got \"422\" (did you mean \"420\"?)")
        assertSingle(diagnostics(yaml(.png, "compression", "10")), at: (3, 56), "compression: expected an integer from 0 to 9")
        assertSingle(diagnostics(yaml(.jpeg, "progressive", "sometimes")), at: (3, 56), "progressive: expected true or false")
    }
}
