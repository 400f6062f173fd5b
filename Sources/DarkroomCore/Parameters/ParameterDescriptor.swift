/// Everything known about one filter parameter, declared once.
///
/// Validation, `darkroom filters`, random draws, documentation and reports all read this,
/// the way libvips generates its argument handling from one declaration per operation.
public struct ParameterDescriptor: Sendable, Hashable {
    public var name: String
    public var description: String
    public var kind: ParameterKind
    /// Used when the parameter is not given; nil means "absent unless given".
    public var defaultValue: ParameterValue?
    /// Hard limits: outside them a config is rejected.
    var minimum: Double?
    var maximum: Double?
    /// Suggested range: sliders and `random` draws use it.
    public var sliderMinimum: Double?
    public var sliderMaximum: Double?
    /// The value at which the parameter has no effect (lets the compiler skip the filter).
    public var identity: ParameterValue?
    /// Unit shown in help: "px", "rad", "%".
    public var unit: String?
    /// The filter cannot be built without it (a convolution's kernel); checked when a chain is
    /// read, and shown by `darkroom filters`.
    public var isRequired: Bool

    public init(
        _ name: String, _ kind: ParameterKind, _ description: String,
        default defaultValue: ParameterValue? = nil,
        min: Double? = nil, max: Double? = nil,
        slider: ClosedRange<Double>? = nil,
        identity: ParameterValue? = nil, unit: String? = nil, required: Bool = false
    ) {
        precondition(!required || defaultValue == nil, "a required parameter has no default")
        // Files are loaded per parameter of the filter, not per field of a record.
        precondition(kind.fields?.allSatisfy { !$0.kind.isFile && $0.kind != .chain } ?? true,
                     "\(name): a record's fields may not be files or chains")
        self.isRequired = required
        self.name = name
        self.kind = kind
        self.description = description
        self.defaultValue = defaultValue
        self.minimum = min
        self.maximum = max
        self.sliderMinimum = slider?.lowerBound
        self.sliderMaximum = slider?.upperBound
        self.identity = identity
        self.unit = unit
    }

    /// The range random values are drawn from: the slider, else the hard limits.
    var randomRange: ClosedRange<Double>? {
        let lo = sliderMinimum ?? minimum, hi = sliderMaximum ?? maximum
        guard let lo, let hi, lo <= hi else { return nil }
        return lo...hi
    }

    /// "from 1 to 65535", "at least 0", or "" — used in error messages and help.
    public var rangeText: String {
        switch (minimum, maximum) {
        case let (lo?, hi?): "from \(formatNumber(lo)) to \(formatNumber(hi))"
        case let (lo?, nil): "of at least \(formatNumber(lo))"
        case let (nil, hi?): "of at most \(formatNumber(hi))"
        default: ""
        }
    }
}
