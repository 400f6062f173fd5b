/// A filter's parameters read through its descriptor: a value the user gave, or else the
/// descriptor's default — so a default is written in one place only, the descriptor.
///
/// Reading a parameter that has neither is a programming error (the descriptor lacks the
/// default the filter relies on) and stops with a message naming it; parameters that may be
/// absent by design (resize's width) are read from ``ResolvedParameters`` as optionals.
public struct DescribedParameters: Sendable {
    public let values: ResolvedParameters
    public let descriptor: FilterDescriptor

    init(_ values: ResolvedParameters, of descriptor: FilterDescriptor) {
        self.values = values
        self.descriptor = descriptor
    }

    /// The given value, or the default.
    subscript(_ name: String) -> ParameterValue {
        if let given = values[name] { return given }
        guard let p = descriptor.parameter(named: name) else {
            preconditionFailure("\(descriptor.name) has no parameter \"\(name)\"")
        }
        guard let value = p.defaultValue else {
            preconditionFailure("\(descriptor.name).\(name) has no default: read it as an optional")
        }
        return value
    }

    public func number(_ name: String) -> Double {
        guard case .number(let v) = self[name] else { preconditionFailure(kindError(name, "a number")) }
        return v
    }

    public func length(_ name: String) -> Length {
        guard case .length(let v) = self[name] else { preconditionFailure(kindError(name, "a length")) }
        return v
    }

    public func point(_ name: String) -> (Length, Length) {
        guard case .point(let x, let y) = self[name] else { preconditionFailure(kindError(name, "a point")) }
        return (x, y)
    }

    func lengths(_ name: String) -> [Length] {
        guard case .lengths(let v) = self[name] else { preconditionFailure(kindError(name, "a list of lengths")) }
        return v
    }

    /// A text parameter with its placeholders filled from the job's ``InputFacts``.
    public func text(_ name: String) -> String {
        guard case .text(let v) = self[name] else { preconditionFailure(kindError(name, "a text")) }
        return values.facts.fill(v)
    }

    public func bool(_ name: String) -> Bool {
        guard case .bool(let v) = self[name] else { preconditionFailure(kindError(name, "a boolean")) }
        return v
    }

    public func color(_ name: String) -> RGBA {
        guard case .color(let v) = self[name] else { preconditionFailure(kindError(name, "a colour")) }
        return v
    }

    /// The records of a records parameter, each read through the parameter's own fields (so
    /// their defaults are written once, in the descriptor, too).
    public func records(_ name: String) -> [DescribedParameters] {
        guard case .records(let items) = self[name] else { preconditionFailure(kindError(name, "a list of records")) }
        let fields = fieldsDescriptor(name)
        return items.map { DescribedParameters($0, of: fields) }
    }

    /// A record parameter, read through its fields.
    func record(_ name: String) -> DescribedParameters {
        guard case .record(let fields) = self[name] else { preconditionFailure(kindError(name, "a record")) }
        return DescribedParameters(fields, of: fieldsDescriptor(name))
    }

    /// The given record, or nil (for records with no default).
    public func optionalRecord(_ name: String) -> DescribedParameters? {
        guard case .record(let fields)? = values[name] else { return nil }
        return DescribedParameters(fields, of: fieldsDescriptor(name))
    }

    /// `draw.shapes` as a descriptor whose parameters are the record's fields.
    private func fieldsDescriptor(_ name: String) -> FilterDescriptor {
        FilterDescriptor(name: "\(descriptor.name).\(name)", displayName: name, categories: [], description: "",
                         parameters: descriptor.parameter(named: name)?.kind.fields ?? [])
    }

    /// A sub-chain's steps, resolved and built.
    public func chain(_ name: String) -> [ResolvedFilter] {
        guard case .chain(let steps) = self[name] else { preconditionFailure(kindError(name, "a chain")) }
        return steps
    }

    /// A list of numbers.
    func numbers(_ name: String) -> [Double] {
        guard case .numbers(let v) = self[name] else { preconditionFailure(kindError(name, "a list of numbers")) }
        return v
    }

    /// The pixels of an image parameter (loaded when the chain was resolved).
    public func image(_ name: String) -> any ImageAsset {
        guard let image = values.images[name] else { preconditionFailure(kindError(name, "a loaded image")) }
        return image
    }

    /// The bytes of a data-file parameter (loaded when the chain was resolved).
    public func data(_ name: String) -> DataAsset {
        guard let data = values.data[name] else { preconditionFailure(kindError(name, "a loaded file")) }
        return data
    }

    /// The image or SVG document of a graphic parameter (loaded when the chain was resolved).
    public func graphic(_ name: String) -> GraphicAsset {
        if let image = values.images[name] { return .image(image) }
        guard let document = values.data[name] else { preconditionFailure(kindError(name, "a loaded graphic")) }
        return .svg(document)
    }

    /// A choice, as the enumeration it names.
    public func choice<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) -> T where T.RawValue == String {
        guard case .choice(let v) = self[name], let value = T(rawValue: v) else { preconditionFailure(kindError(name, "a \(T.self)")) }
        return value
    }

    public func choice(_ name: String) -> String {
        guard case .choice(let v) = self[name] else { preconditionFailure(kindError(name, "a choice")) }
        return v
    }

    private func kindError(_ name: String, _ kind: String) -> String {
        "\(descriptor.name).\(name) is not \(kind): its descriptor and the filter disagree"
    }
}

extension Filter {
    /// `parameters` read through this filter's descriptor (see ``DescribedParameters``).
    public static func described(_ parameters: ResolvedParameters) -> DescribedParameters {
        DescribedParameters(parameters, of: descriptor)
    }
}
