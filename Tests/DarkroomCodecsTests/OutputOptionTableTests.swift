import XCTest
@testable import DarkroomCodecs

/// The output options' table is consistent, and the encoder's settings come from it.
final class OutputOptionTableTests: XCTestCase {
    func testEachOptionIsDeclaredSoundly() {
        XCTAssertEqual(Set(OutputOption.all.map(\.name)).count, OutputOption.all.count, "names are unique")
        for option in OutputOption.all {
            XCTAssertFalse(option.forms.isEmpty, option.name)
            XCTAssertTrue(option.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(option.name) is snake_case")
            let formats = option.formats
            XCTAssertEqual(Set(formats).count, formats.count, "\(option.name): each format reads it one way")
            XCTAssertTrue(formats.allSatisfy(\.isWritable), "\(option.name): written formats only")
            for form in option.forms {
                if let value = form.defaultValue { XCTAssertTrue(form.kind.holds(value), "\(option.name): default \(value)") }
                XCTAssertFalse(form.defaultText.isEmpty)
            }
            for format in option.refusals.keys { XCTAssertNil(option.form(for: format), "\(option.name) refuses \(format)") }
        }
    }

    /// An encoder left alone writes every option's default from the table.
    func testEncodeOptionsStartFromTheTablesDefaults() {
        for format in ImageFormat.writableFormats {
            let options = EncodeOptions(format: format)
            for option in OutputOption.all {
                guard let expected = option.form(for: format)?.defaultValue else { continue }
                XCTAssertEqual(options.encoding.value(option, for: format), expected, "\(option.name) for \(format)")
            }
        }
        XCTAssertEqual(EncodeOptions(format: .jpeg).quality, OutputOption.quality.forms[0].defaultValue?.integer)
        XCTAssertEqual(EncodeOptions(format: .webp).effort, OutputOption.effort.forms[0].defaultValue?.integer)
        XCTAssertEqual(EncodeOptions(format: .tiff).tiffCompression.rawValue, OutputOption.compression.form(for: .tiff)?.defaultValue?.word)
        XCTAssertEqual(EncodeOptions(format: .png).compression, OutputOption.compression.form(for: .png)?.defaultValue?.integer)
        XCTAssertEqual(EncodeOptions(format: .png).metadataPolicy, .keep)
    }

    /// A value is read as the kind says, and one outside it is not.
    func testKindsParseTheirValuesOnly() {
        XCTAssertEqual(OutputOption.Kind.integer(1...100).parse("80"), .integer(80))
        XCTAssertNil(OutputOption.Kind.integer(1...100).parse("0"))
        XCTAssertNil(OutputOption.Kind.integer(1...100).parse("high"))
        XCTAssertEqual(OutputOption.Kind.integerChoice([8, 16]).parse("16"), .integer(16))
        XCTAssertNil(OutputOption.Kind.integerChoice([8, 16]).parse("10"))
        XCTAssertEqual(OutputOption.Kind.boolean.parse("yes"), .boolean(true))
        XCTAssertEqual(OutputOption.Kind.choice(["none", "lzw"]).parse("LZW"), .word("lzw"))
        XCTAssertNil(OutputOption.Kind.choice(["none", "lzw"]).parse("zip"))
        XCTAssertEqual(OutputOption.Kind.integer(0...9).allowed, "from 0 to 9")
        XCTAssertEqual(OutputOption.Kind.integerChoice([8, 10]).allowed, "8 or 10")
    }

    /// Encodings compare by what each option reads as, written or by default.
    func testEncodingsCompareByTheValuesInForce() {
        XCTAssertEqual(OutputEncoding(quality: 90, compression: 6), OutputEncoding())
        XCTAssertNotEqual(OutputEncoding(quality: 80), OutputEncoding())
        var tiff = OutputEncoding()
        tiff.tiffCompression = .lzw
        XCTAssertNotEqual(tiff, OutputEncoding())
        XCTAssertEqual(tiff.compression, 6, "PNG's level is untouched by TIFF's compression")
    }

    /// The report's error codes are the strings reports have always held.
    func testErrorCodesKeepTheirReportStrings() {
        XCTAssertEqual(ErrorCode.allCases.map(\.rawValue), [
            "not_an_image", "corrupt", "truncated", "unsupported", "too_large", "io", "encode_failed", "timeout", "draw_failed",
            "write_failed", "chain_failed", "output_exists", "gave_up",
        ])
        for code in ErrorCode.allCases {
            XCTAssertTrue(code.meaning.hasSuffix("."), code.rawValue)
            XCTAssertTrue(code.remedy.hasSuffix("."), code.rawValue)
        }
    }
}
