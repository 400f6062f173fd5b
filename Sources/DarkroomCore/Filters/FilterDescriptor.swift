/// What a filter is, declared once: the registry, config validation, `darkroom filters`,
/// random draws and reports are all generated from it.
public struct FilterDescriptor: Sendable, Hashable {
    /// snake_case name used in configs and `--chain`.
    public var name: String
    public var displayName: String
    /// Categories for listing, e.g. "color", "blur", "geometry", "composite".
    public var categories: [String]
    public var description: String
    /// The Core Image, libvips or Core Graphics operation this filter follows, so users find the
    /// familiar definition (`CIExposureAdjust`, `vips conv`); shown by `darkroom filters`.
    public var counterpart: String?
    /// Parameters in the order help text shows them.
    public var parameters: [ParameterDescriptor]
    /// Invocations that show what the filter can do, as they follow its name in a chain
    /// (`width=800 fit=cover`): listed by `darkroom filters` and its docs, and what the
    /// conformance suite builds the filter from where its parameters cannot all be drawn at
    /// random (a required kernel, a file, a list of shapes, modes that exclude each other).
    /// File names in them (`stamp.png`, `warm.cube`, `logo.svg`) name the suite's test assets.
    public var examples: [String]

    public init(name: String, displayName: String, categories: [String], description: String,
                counterpart: String? = nil, parameters: [ParameterDescriptor] = [], examples: [String] = []) {
        self.name = name
        self.displayName = displayName
        self.categories = categories
        self.description = description
        self.counterpart = counterpart
        self.parameters = parameters
        self.examples = examples
    }

    public func parameter(named name: String) -> ParameterDescriptor? {
        parameters.first { $0.name == name }
    }
}

/// JSON form for `darkroom filters --json`; field names are snake_case and stable.
extension FilterDescriptor: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, displayName = "display_name", categories, description, counterpart, parameters, examples
    }
}
