/// What sort of value a filter parameter takes; decides parsing, validation and random draws.
public enum ParameterKind: Sendable, Hashable {
    /// A real number.
    case scalar
    /// A whole number.
    case integer
    /// An angle in radians; text may carry a `deg` suffix.
    case angle
    /// A length in pixels, or `%` of the image's width or height.
    case length
    /// A position or offset `[x, y]`, each a length; also `center`.
    case point
    /// `true` or `false`.
    case boolean
    /// `#rrggbb`, `#rrggbbaa`, `[r, g, b, a]` in 0…1, a CSS name, or `random`.
    case color
    /// One word out of a fixed list.
    case choice([String])
    /// Free text (a path's SVG data); parsed and checked by the filter that reads it.
    case text
    /// A list of numbers (a kernel, a matrix, a scale pair).
    case numbers
    /// A square matrix (a convolution kernel): a list of n equal rows of n numbers, or a flat list
    /// of n² numbers. Parsed into `.numbers`, row-major, so n is the square root of the count.
    case matrix
    /// An image file (a logo, a texture): a path, relative to the config's folder. The codecs'
    /// asset store loads it once (upright, sRGB, compact); the filter receives its pixels as an
    /// ``ImageAsset``.
    case image
    /// A data file (a `.cube` LUT, a font): a path, relative to the config's folder; the filter
    /// receives its bytes as a ``DataAsset``.
    case dataFile
    /// A list of records (a `draw`'s shapes, a gradient's stops): each a mapping whose keys are
    /// the given parameters, checked, defaulted and drawn at random like a filter's own.
    /// Fields may not be files, records or lists of records.
    case records([ParameterDescriptor])
    /// One record (a `group`'s shadow), as in ``records(_:)``.
    case record([ParameterDescriptor])

    /// The name used in help text and `darkroom filters --json`.
    public var name: String {
        switch self {
        case .scalar: "scalar"
        case .integer: "integer"
        case .angle: "angle"
        case .length: "length"
        case .point: "point"
        case .boolean: "boolean"
        case .color: "color"
        case .choice: "choice"
        case .text: "text"
        case .numbers: "numbers"
        case .matrix: "matrix"
        case .image: "image"
        case .dataFile: "file"
        case .records: "records"
        case .record: "record"
        }
    }

    /// The fields of a record kind, else nil.
    public var fields: [ParameterDescriptor]? {
        switch self {
        case .records(let f), .record(let f): f
        default: nil
        }
    }

    /// Kinds that accept `random`, drawn from the slider range.
    public var isNumeric: Bool {
        switch self {
        case .scalar, .integer, .angle, .length: true
        default: false
        }
    }
}
