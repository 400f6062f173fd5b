import Foundation

/// A lookup table read from an Adobe/Resolve `.cube` file (Adobe's "Cube LUT Specification 1.0"):
/// a text file of keyword lines, then one line of three numbers per table entry.
///
/// Keywords: `TITLE "text"`, `LUT_1D_SIZE n` or `LUT_3D_SIZE n`, `DOMAIN_MIN r g b`,
/// `DOMAIN_MAX r g b` (default 0 0 0 and 1 1 1), and Resolve's `LUT_1D_INPUT_RANGE lo hi` /
/// `LUT_3D_INPUT_RANGE lo hi` (the same domain for all three). `#` starts a comment line. A 3-D
/// table lists red fastest, then green, then blue. Parsing is of bytes the codecs' asset store
/// read: the core opens no file.
///
/// Everything is checked, each error naming its line: a size out of range, a keyword after the
/// data, a line that is not three numbers, too few or too many entries, and a table value outside
/// the declared domain (darkroom's rule: a LUT whose outputs leave the domain must widen
/// DOMAIN_MIN/DOMAIN_MAX, so a typo like 10.5 for 0.5 is caught, not rendered).
struct CubeLUT: Sendable {
    enum Dimensions: Sendable, Equatable { case one, three }

    var title: String?
    var dimensions: Dimensions
    /// Entries per axis.
    var size: Int
    /// The table's entries in file order.
    var entries: [SIMD3<Float>]
    var domainMin = SIMD3<Float>(0, 0, 0)
    var domainMax = SIMD3<Float>(1, 1, 1)

    /// Largest 3-D size accepted (128³ entries hold 32 MiB as float RGBA), and 1-D size.
    static let maxSize3D = 128
    static let maxSize1D = 65536

    /// Parses `bytes`; errors read `line 12: …`.
    init(bytes: [UInt8]) throws(ParameterError) {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ParameterError("not a text file (invalid UTF-8)") }
        var title: String?
        var declared: (dimensions: Dimensions, size: Int, line: Int)?
        var domainMin: SIMD3<Float>?, domainMax: SIMD3<Float>?
        var entries = [SIMD3<Float>]()
        var firstDataLine = 0
        var expected = Int.max
        var lineNumber = 0
        func fail(_ message: String) -> ParameterError { ParameterError("line \(lineNumber): \(message)") }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let keyword = String(words[0])
            if let first = keyword.first, first.isLetter {
                if !entries.isEmpty { throw fail("\(keyword) after the table data (keywords come first)") }
                let arguments = words.dropFirst().map(String.init)
                switch keyword {
                case "TITLE":
                    let rest = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
                    guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else {
                        throw fail("TITLE expects a quoted text, got \(rest)")
                    }
                    title = String(rest.dropFirst().dropLast())
                case "LUT_1D_SIZE", "LUT_3D_SIZE":
                    let three = keyword == "LUT_3D_SIZE"
                    let limit = three ? Self.maxSize3D : Self.maxSize1D
                    guard declared == nil else { throw fail("\(keyword) after a size was given at line \(declared!.line)") }
                    guard arguments.count == 1, let n = Int(arguments[0]), (2...limit).contains(n) else {
                        throw fail("\(keyword) expects an integer from 2 to \(limit), got \"\(arguments.joined(separator: " "))\"")
                    }
                    declared = (three ? .three : .one, n, lineNumber)
                    expected = three ? n * n * n : n
                case "DOMAIN_MIN", "DOMAIN_MAX":
                    guard arguments.count == 3, let v = Self.triple(arguments) else {
                        throw fail("\(keyword) expects three numbers, got \"\(arguments.joined(separator: " "))\"")
                    }
                    if keyword == "DOMAIN_MIN" { domainMin = v } else { domainMax = v }
                case "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE":
                    guard arguments.count == 2, let lo = Float(arguments[0]), let hi = Float(arguments[1]), lo.isFinite, hi.isFinite else {
                        throw fail("\(keyword) expects two numbers, got \"\(arguments.joined(separator: " "))\"")
                    }
                    domainMin = SIMD3(repeating: lo)
                    domainMax = SIMD3(repeating: hi)
                default:
                    throw fail("unknown keyword \"\(keyword)\""
                               + suggestionText(keyword, among: ["TITLE", "LUT_1D_SIZE", "LUT_3D_SIZE", "DOMAIN_MIN", "DOMAIN_MAX",
                                                                 "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE"]))
                }
                continue
            }
            guard declared != nil else { throw fail("table data before LUT_3D_SIZE or LUT_1D_SIZE") }
            if entries.isEmpty {
                firstDataLine = lineNumber
                let lo = domainMin ?? .zero, hi = domainMax ?? .one
                guard all(lo .< hi) else {
                    throw fail("DOMAIN_MIN \(Self.text(lo)) must be below DOMAIN_MAX \(Self.text(hi)) on every channel")
                }
                entries.reserveCapacity(expected)
            }
            guard entries.count < expected else {
                throw fail("more than the \(expected) table lines \(Self.sizeText(declared!)) declares")
            }
            guard words.count == 3, let v = Self.triple(words) else {
                throw fail("expected three numbers (red green blue), got \"\(line)\"")
            }
            let lo = domainMin ?? .zero, hi = domainMax ?? .one
            guard all(v .>= lo), all(v .<= hi) else {
                throw fail("\(Self.text(v)) is outside the domain \(Self.text(lo)) … \(Self.text(hi)) (widen DOMAIN_MIN/DOMAIN_MAX if it is meant)")
            }
            entries.append(v)
        }
        guard let declared else { throw ParameterError("no LUT_3D_SIZE or LUT_1D_SIZE line: not a .cube LUT") }
        guard entries.count == expected else {
            throw ParameterError("line \(lineNumber): the file ends after \(entries.count) table lines"
                                 + (entries.isEmpty ? "" : " (from line \(firstDataLine))")
                                 + "; \(Self.sizeText(declared)) needs \(expected)")
        }
        self.title = title
        self.dimensions = declared.dimensions
        self.size = declared.size
        self.entries = entries
        self.domainMin = domainMin ?? .zero
        self.domainMax = domainMax ?? .one
    }

    /// The table as the point operation that applies it: a ``ColorCube`` for 3-D, a
    /// ``ChannelLUT`` for 1-D.
    func operation(interpolation: ColorCube.Interpolation) -> any PointOperation {
        switch dimensions {
        case .three:
            return ColorCube(size: size, entries: entries.map { Pixel($0.x, $0.y, $0.z, 1) },
                             domainMin: domainMin, domainMax: domainMax, interpolation: interpolation)
        case .one:
            return ChannelLUT(entries: entries, domainMin: domainMin, domainMax: domainMax)
        }
    }

    private static func triple<S: StringProtocol>(_ words: [S]) -> SIMD3<Float>? {
        guard let r = Float(String(words[0])), let g = Float(String(words[1])), let b = Float(String(words[2])),
              r.isFinite, g.isFinite, b.isFinite else { return nil }
        return SIMD3(r, g, b)
    }

    private static func text(_ v: SIMD3<Float>) -> String {
        "\(formatNumber(Double(v.x))) \(formatNumber(Double(v.y))) \(formatNumber(Double(v.z)))"
    }

    private static func sizeText(_ d: (dimensions: Dimensions, size: Int, line: Int)) -> String {
        "\(d.dimensions == .three ? "LUT_3D_SIZE" : "LUT_1D_SIZE") \(d.size) (line \(d.line))"
    }
}
