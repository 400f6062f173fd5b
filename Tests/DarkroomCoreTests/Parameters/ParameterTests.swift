import XCTest
@testable import DarkroomCore

final class ParameterTests: XCTestCase {
    func testAnglesAcceptDegreesAndRadians() throws {
        let p = ParameterDescriptor("angle", .angle, "")
        XCTAssertEqual(try p.parse(.scalar("-45deg")), .value(.number(-Double.pi / 4)))
        XCTAssertEqual(try p.parse(.scalar("0.5")), .value(.number(0.5)))
        XCTAssertThrowsError(try p.parse(.scalar("left")))
    }

    func testLengthsAcceptPixelsAndPercent() throws {
        let p = ParameterDescriptor("translate", .point, "")
        XCTAssertEqual(try p.parse(.list([.scalar("-50%"), .scalar("12.5%")])),
                       .value(.point(Length(-50, percent: true), Length(12.5, percent: true))))
        XCTAssertEqual(Length(-50, percent: true).pixels(of: 640), -320)
        XCTAssertThrowsError(try p.parse(.scalar("12")))
    }

    /// Values are read without blanks around them: spaces, tabs and Unicode space separators (a
    /// no-break or an em space pasted from a document), as Foundation's `.whitespaces` says.
    func testBlanksAroundValuesAreIgnored() throws {
        XCTAssertEqual(" \t12px\u{00A0}".trimmed, "12px")
        XCTAssertEqual("\u{2003}5 %\u{3000}".trimmed, "5 %")
        XCTAssertEqual("a b".trimmed, "a b")
        XCTAssertEqual(" \t ".trimmed, "")
        XCTAssertEqual("".trimmed, "")
        XCTAssertEqual("\ne\u{301} ".trimmed, "\ne\u{301}", "a newline is not a blank; combining marks stay")
        XCTAssertEqual(parseLength("\u{00A0}25%\t"), Length(25, percent: true))
        let chain = try ChainSyntax.parse("sepia  intensity=\t0.5 | invert")
        XCTAssertEqual(chain.steps.count, 2)
        XCTAssertNoThrow(try chain.resolve(seed: 1))
    }

    func testIntegerRangeErrorSaysWhatWasExpected() {
        let p = ParameterDescriptor("width", .integer, "", min: 1, max: 65535)
        XCTAssertThrowsError(try p.parse(.scalar("wide"))) { error in
            XCTAssertEqual("\(error)", "expected an integer from 1 to 65535, got \"wide\"")
        }
        XCTAssertThrowsError(try p.parse(.scalar("0")))
        XCTAssertThrowsError(try p.parse(.scalar("2.5")))
    }

    func testColoursInEveryDocumentedForm() throws {
        let p = ParameterDescriptor("color", .color, "")
        XCTAssertEqual(try p.parse(.scalar("#ff000080")), .value(.color(RGBA(1, 0, 0, 128.0 / 255))))
        XCTAssertEqual(try p.parse(.scalar("#0000ff")), .value(.color(RGBA(0, 0, 1, 1))))
        XCTAssertEqual(try p.parse(.list([.scalar("0"), .scalar("0"), .scalar("0"), .scalar("0.25")])),
                       .value(.color(RGBA(0, 0, 0, 0.25))))
        XCTAssertEqual(try p.parse(.scalar("yellow")), .value(.color(RGBA(1, 1, 0, 1))))
        XCTAssertEqual(try p.parse(.scalar("random")), .random)
        XCTAssertThrowsError(try p.parse(.scalar("#12345")))
        XCTAssertThrowsError(try p.parse(.list([.scalar("2"), .scalar("0"), .scalar("0")])))
    }

    func testRandomIsDrawnInsideTheSliderRangeAndReproducibleFromTheSeed() throws {
        let spec = try ChainSyntax.parse("sepia intensity=random | hue angle=random | color_controls contrast=random")
        for seed in UInt64(0)..<200 {
            let a = try spec.resolve(seed: seed), b = try spec.resolve(seed: seed)
            XCTAssertEqual(a.map(\.parameters), b.map(\.parameters))
            let intensity = a[0].parameters.number("intensity")!
            XCTAssertTrue((0...1).contains(intensity))
            XCTAssertTrue((-Double.pi...Double.pi).contains(a[1].parameters.number("angle")!))
            XCTAssertTrue((0.25...4).contains(a[2].parameters.number("contrast")!))
            XCTAssertEqual(a[0].parameters.randomNames, ["intensity"])
        }
        let draws = Set((UInt64(0)..<50).map { try! spec.resolve(seed: $0)[0].parameters.number("intensity")! })
        XCTAssertGreaterThan(draws.count, 45, "different seeds must give different values")
    }

    func testRandomIsRefusedWhereThereIsNoRange() {
        let p = ParameterDescriptor("fit", .choice(["inside", "cover"]), "")
        XCTAssertThrowsError(try p.parse(.scalar("random")))
    }

    func testDefaultsFillInAfterGivenValues() throws {
        let step = try FilterInvocation(name: "color_controls", rawArguments: [("contrast", .scalar("2"))])
        var rng = SeededGenerator(seed: 0)
        let resolved = try step.resolveParameters(using: &rng, registry: .standard)
        XCTAssertEqual(resolved.entries.map(\.name), ["contrast", "saturation", "brightness"])
        XCTAssertEqual(resolved.number("saturation"), 1)
    }
}

/// Defaults live in descriptors only: every filter builds from its descriptor's defaults (or
/// says which parameter it needs), and required parameters are declared, enforced and listed.
final class DescriptorDefaultTests: XCTestCase {
    func testEveryFilterBuildsFromItsDescriptorsDefaultsOrNamesWhatItNeeds() {
        for type in FilterRegistry.standard.filters {
            let name = type.descriptor.name
            do {
                let built = try FilterInvocation(name: name, rawArguments: []).resolve(using: &rng, registry: .standard)
                XCTAssertEqual(built.name, name)
                // Every default the filter read is in the report's parameters.
                for p in type.descriptor.parameters where p.defaultValue != nil {
                    XCTAssertEqual(built.parameters[p.name], p.defaultValue, "\(name).\(p.name)")
                }
            } catch {
                XCTAssertTrue(error.message.hasPrefix("\(name):") || error.message.hasPrefix("\(name).") ,
                              "\(name): \(error.message)")
            }
        }
    }

    func testARequiredParameterIsEnforcedAndListed() throws {
        let kernel = try XCTUnwrap(ConvolveFilter.descriptor.parameter(named: "kernel"))
        XCTAssertTrue(kernel.isRequired)
        XCTAssertNil(kernel.defaultValue)
        XCTAssertEqual(buildError("convolve offset=0.1").map { $0.hasPrefix("convolve: needs kernel") }, true,
                       buildError("convolve offset=0.1") ?? "built without a kernel")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ConvolveFilter.descriptor)) as? [String: Any]
        let parameters = try XCTUnwrap(json?["parameters"] as? [[String: Any]])
        XCTAssertEqual(parameters.first { $0["name"] as? String == "kernel" }?["required"] as? Bool, true)
        XCTAssertEqual(parameters.first { $0["name"] as? String == "offset" }?["required"] as? Bool, false)
    }

    private var rng = SeededGenerator(seed: 3)
}
