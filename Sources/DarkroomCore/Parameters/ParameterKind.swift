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
    /// A rectangle `[x, y, width, height]`, each a length (px or %). Parsed into `.lengths`.
    case rect
    /// A list of lengths, each px or % (`[10, 20%, 30px]`): a shape's points (x, y alternating,
    /// so % of the width, then of the height), radii, dash lengths. Parsed into `.lengths`.
    case lengths
    /// Free text: a caption, whose `{placeholders}` name ``InputFacts`` and are filled per file,
    /// or a path's SVG data, parsed and checked by the filter that reads it.
    case text
    /// `true` or `false`.
    case boolean
    /// `#rrggbb`, `#rrggbbaa`, `[r, g, b, a]` in 0…1, a CSS name, or `random`.
    case color
    /// One word out of a fixed list.
    case choice([String])
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
    /// An image file or an SVG document (a logo): a path, relative to the config's folder. The
    /// filter receives pixels (``GraphicAsset/image(_:)``) or, for an SVG, its bytes, which a
    /// drawing module renders at the size it is drawn (``GraphicAsset/svg(_:)``).
    case graphic
    /// A list of records (a `draw`'s shapes, a gradient's stops): each a mapping whose keys are
    /// the given parameters, checked, defaulted and drawn at random like a filter's own.
    /// Fields may not be files, records, lists of records or chains.
    case records([ParameterDescriptor])
    /// One record (a `group`'s shadow), as in ``records(_:)``.
    case record([ParameterDescriptor])
    /// A sub-chain (a `group`'s chain): a list of filter steps written exactly as a chain is,
    /// each checked against the registry the chain is read with (``ChainContext``), its
    /// `random`s drawn with the job's seed.
    case chain

    /// The name used in help text and `darkroom filters --json`.
    public var name: String {
        switch self {
        case .scalar: "scalar"
        case .integer: "integer"
        case .angle: "angle"
        case .length: "length"
        case .point: "point"
        case .rect: "rect"
        case .lengths: "lengths"
        case .text: "text"
        case .boolean: "boolean"
        case .color: "color"
        case .choice: "choice"
        case .numbers: "numbers"
        case .matrix: "matrix"
        case .image: "image"
        case .dataFile: "file"
        case .graphic: "graphic"
        case .records: "records"
        case .record: "record"
        case .chain: "chain"
        }
    }

    /// Kinds that name a file, loaded through the chain's ``AssetResolver``.
    public var isFile: Bool {
        switch self {
        case .image, .dataFile, .graphic: true
        default: false
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
    var isNumeric: Bool {
        switch self {
        case .scalar, .integer, .angle, .length: true
        default: false
        }
    }
}
