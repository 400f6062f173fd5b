/// A length in pixels or a percentage of the image's width or height.
public struct Length: Hashable, Sendable, CustomStringConvertible {
    public var value: Double
    public var isPercent: Bool

    public init(_ value: Double, percent: Bool = false) {
        self.value = value
        self.isPercent = percent
    }

    /// Pixels, given the extent a percentage refers to.
    public func pixels(of extent: Int) -> Double {
        isPercent ? value / 100 * Double(extent) : value
    }

    public var description: String { isPercent ? "\(formatNumber(value))%" : formatNumber(value) }
}

/// A straight (unpremultiplied) RGBA colour, channels 0…1.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r, g, b, a: Double

    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        (self.r, self.g, self.b, self.a) = (r, g, b, a)
    }

    public static let black = RGBA(0, 0, 0)
    public static let transparent = RGBA(0, 0, 0, 0)

    /// The colour as a premultiplied pixel.
    public var pixel: Pixel { Pixel(Float(r), Float(g), Float(b), Float(a)).premultiplied }

    /// `#rrggbbaa`.
    public var description: String {
        func hex(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            return String(n, radix: 16).leftPadded(to: 2)
        }
        return "#" + hex(r) + hex(g) + hex(b) + hex(a)
    }
}

/// A parsed, validated parameter value.
public enum ParameterValue: Hashable, Sendable, CustomStringConvertible {
    /// Scalars, integers and angles (angles in radians).
    case number(Double)
    case length(Length)
    case point(Length, Length)
    case bool(Bool)
    case color(RGBA)
    case choice(String)
    case numbers([Double])
    /// Lengths in order (a rectangle's x, y, width, height).
    case lengths([Length])
    /// Free text, placeholders unfilled (`© {exif.Artist}`).
    case text(String)
    /// A file's path (image and data-file parameters); absolute once a config resolved it.
    case file(String)
    /// Records (shapes, gradient stops), each with its fields checked, drawn and defaulted.
    case records([ResolvedParameters])
    case record(ResolvedParameters)
    /// A sub-chain's steps, resolved and built (a `group`'s chain).
    case chain([ResolvedFilter])

    public var description: String {
        switch self {
        case .number(let v): formatNumber(v)
        case .length(let l): l.description
        case .point(let x, let y): "[\(x), \(y)]"
        case .bool(let b): b ? "true" : "false"
        case .color(let c): c.description
        case .choice(let s): s
        case .numbers(let v): "[" + v.map(formatNumber).joined(separator: ", ") + "]"
        case .lengths(let v): "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .file(let path): path
        // Quoted when it holds what the chain syntax splits on, so a report pastes back.
        case .text(let s):
            s.contains(where: { " ,|[]{}=\"\\".contains($0) })
                ? "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" : s
        case .records(let items): "[" + items.map(Self.recordText).joined(separator: ", ") + "]"
        case .record(let fields): Self.recordText(fields)
        case .chain(let steps): "[" + steps.map(Self.stepText).joined(separator: " | ") + "]"
        }
    }
}

extension ParameterValue {
    /// `{shape=rect, fill=#ff0000ff}`: the `--chain` form, which reads back as the same record.
    static func recordText(_ fields: ResolvedParameters) -> String {
        "{" + fields.entries.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") + "}"
    }

    /// `sepia intensity=0.8`: one step of a sub-chain in the `--chain` form.
    static func stepText(_ step: ResolvedFilter) -> String {
        ([step.name] + step.parameters.entries.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
    }
}

/// Shortest faithful text of a number: `800`, not `800.0`.
func formatNumber(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}

extension String {
    func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
