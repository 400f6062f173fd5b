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

    public init(name: String, displayName: String, categories: [String], description: String,
                counterpart: String? = nil, parameters: [ParameterDescriptor] = []) {
        self.name = name
        self.displayName = displayName
        self.categories = categories
        self.description = description
        self.counterpart = counterpart
        self.parameters = parameters
    }

    public func parameter(named name: String) -> ParameterDescriptor? {
        parameters.first { $0.name == name }
    }
}

/// JSON form for `darkroom filters --json`; field names are snake_case and stable.
extension FilterDescriptor: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, displayName = "display_name", categories, description, counterpart, parameters
    }
}
