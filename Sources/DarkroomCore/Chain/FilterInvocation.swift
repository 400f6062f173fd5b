/// One step of a chain as the user wrote it: a filter name and checked arguments, some of
/// which may be `random`. Resolving draws the random ones and fills in defaults.
public struct FilterInvocation: Sendable, Hashable {
    public var name: String
    var arguments: [(name: String, argument: Argument)]

    /// Checks a step against the registry: the filter and every parameter must exist and every
    /// value must fit. Errors name the parameter (`resize.width: expected …`).
    /// Files that parameters name are loaded through `assets` once, to check them.
    public init(name: String, rawArguments: [(name: String, value: RawValue)],
                registry: FilterRegistry = .standard, assets: any AssetResolver = NoAssets()) throws(ParameterError) {
        try self.init(name: name, rawArguments: rawArguments, in: ChainContext(registry: registry, assets: assets))
    }

    /// As ``init(name:rawArguments:registry:assets:)``, for a step `context.depth` sub-chains deep.
    init(name: String, rawArguments: [(name: String, value: RawValue)], in context: ChainContext) throws(ParameterError) {
        do { arguments = try Self.check(name, rawArguments, in: context) } catch {
            throw ParameterError(error.locationText.isEmpty ? "\(name): \(error.message)" : "\(name)\(error.locationText): \(error.message)")
        }
        self.name = name
        // Contradictions between parameters (resize with no size, say) are found now, not mid-job.
        var probe = SeededGenerator(seed: 0)
        _ = try resolve(using: &probe, registry: context.registry, assets: context.assets)
    }

    /// One step of a sub-chain, written as a chain's step is in a config: a name (`sepia`) or a
    /// one-key mapping (`{sepia: {intensity: 0.8}}`). Errors keep where they are inside the
    /// step (`[.key("sepia"), .key("intensity")]`), so a config points at the very node.
    init(step raw: RawValue, in context: ChainContext) throws(ParameterError) {
        let written: [RawField]
        switch raw {
        case .scalar(let s) where !s.trimmed.isEmpty:
            (name, written) = (s.trimmed, [])
        case .mapping(let fields) where fields.count == 1:
            name = fields[0].key
            switch fields[0].value {
            case .mapping(let given): written = given
            case .scalar(let s) where s.trimmed.isEmpty: written = []
            default:
                throw ParameterError("expected the parameters of \(name) as a mapping { parameter: value }, got \(fields[0].value)",
                                     at: [.key(name)])
            }
        default:
            throw ParameterError("expected a filter name or one filter with its parameters ({ resize: { width: 720 } }), got \(raw)")
        }
        _ = try context.registry.descriptor(named: name)
        do {
            arguments = try Self.check(name, written.map { ($0.key, $0.value) }, in: context)
            var probe = SeededGenerator(seed: 0)
            _ = try build(using: &probe, in: context)
        } catch {
            throw error.inside(.key(name))
        }
    }

    /// The arguments checked against the filter's descriptor; errors located at the parameter.
    private static func check(_ name: String, _ rawArguments: [(name: String, value: RawValue)],
                              in context: ChainContext) throws(ParameterError) -> [(name: String, argument: Argument)] {
        let descriptor = try context.registry.descriptor(named: name)
        var arguments = [(name: String, argument: Argument)]()
        for (key, raw) in rawArguments {
            guard let p = descriptor.parameter(named: key) else {
                throw ParameterError("unknown parameter \"\(key)\"" + suggestionText(key, among: descriptor.parameters.map(\.name)),
                                     at: [.key(key)])
            }
            guard !arguments.contains(where: { $0.name == key }) else { throw ParameterError("given twice", at: [.key(key)]) }
            do { arguments.append((key, try p.parse(raw, in: context))) } catch { throw error.inside(.key(key)) }
        }
        for p in descriptor.parameters where p.isRequired && !arguments.contains(where: { $0.name == p.name }) {
            throw ParameterError("needs \(p.name) (\(p.description))")
        }
        return arguments
    }

    /// Parameters with defaults filled in, `random` drawn from each slider range and the files
    /// image and data-file parameters name loaded through `assets`.
    func resolveParameters(using rng: inout SeededGenerator, registry: FilterRegistry,
                                  assets: any AssetResolver = NoAssets(),
                                  facts: InputFacts = InputFacts()) throws(ParameterError) -> ResolvedParameters {
        do { return try parameters(using: &rng, in: ChainContext(registry: registry, assets: assets, facts: facts)) } catch {
            throw ParameterError("\(name)\(error.locationText): \(error.message)")
        }
    }

    /// As ``resolveParameters(using:registry:assets:facts:)``, errors located at the parameter.
    private func parameters(using rng: inout SeededGenerator, in context: ChainContext) throws(ParameterError) -> ResolvedParameters {
        let descriptor = try context.registry.descriptor(named: name)
        var resolved = ResolvedParameters()
        resolved.facts = context.facts
        for (key, argument) in arguments {
            let p = descriptor.parameter(named: key)!
            let isRandom = if case .random = argument { true } else { false }
            do { resolved.append(key, try p.resolve(argument, using: &rng, in: context), random: isRandom) } catch {
                throw error.inside(.key(key))
            }
        }
        for p in descriptor.parameters where !resolved.has(p.name) {
            if let d = p.defaultValue { resolved.append(p.name, d, random: false) }
        }
        for p in descriptor.parameters where p.kind.isFile {
            do { try resolved.load(p.name, kind: p.kind, from: context.assets) } catch { throw error.inside(.key(p.name)) }
        }
        return resolved
    }

    /// Resolves and builds the filter.
    func resolve(using rng: inout SeededGenerator, registry: FilterRegistry,
                        assets: any AssetResolver = NoAssets(), facts: InputFacts = InputFacts()) throws(ParameterError) -> ResolvedFilter {
        let parameters = try resolveParameters(using: &rng, registry: registry, assets: assets, facts: facts)
        do {
            return ResolvedFilter(name: name, parameters: parameters,
                                  filter: try registry.make(name, parameters: parameters))
        } catch {
            // Keep where inside a value the filter found the problem (the third shape's points).
            throw ParameterError("\(name): \(error.message)", at: error.location)
        }
    }

    /// Resolves and builds the filter as a step of a sub-chain: errors keep their location.
    func build(using rng: inout SeededGenerator, in context: ChainContext) throws(ParameterError) -> ResolvedFilter {
        let parameters = try parameters(using: &rng, in: context)
        return ResolvedFilter(name: name, parameters: parameters, filter: try context.registry.make(name, parameters: parameters))
    }

    public static func == (l: Self, r: Self) -> Bool {
        l.name == r.name && l.arguments.elementsEqual(r.arguments) { $0.name == $1.name && $0.argument == $1.argument }
    }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        for a in arguments { h.combine(a.name); h.combine(a.argument) }
    }
}

/// A built filter with the parameters it was built from (what the report records). Two are
/// equal when their names and parameters are: the filter is made from them.
public struct ResolvedFilter: Sendable, Hashable {
    public var name: String
    public var parameters: ResolvedParameters
    public var filter: any Filter

    init(name: String, parameters: ResolvedParameters, filter: any Filter) {
        self.name = name
        self.parameters = parameters
        self.filter = filter
    }

    /// The filter's descriptor, from the filter itself: no registry lookup.
    public var descriptor: FilterDescriptor { type(of: filter).descriptor }

    public static func == (l: Self, r: Self) -> Bool { l.name == r.name && l.parameters == r.parameters }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(parameters)
    }
}

extension ParameterDescriptor {
    /// A value drawn uniformly inside the slider range (never outside it).
    func draw(using rng: inout SeededGenerator) -> ParameterValue {
        if kind == .color {
            return .color(RGBA(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng),
                               Double.random(in: 0...1, using: &rng)))
        }
        if kind == .length && sliderMinimum == nil {
            // A length with no slider is drawn as a share of the image (at least 1 % when it
            // must be positive), so a random crop or offset fits any image.
            return .length(Length(Double.random(in: (minimum ?? 0) > 0 ? 1...100 : 0...100, using: &rng), percent: true))
        }
        let range = randomRange ?? 0...1
        var v = Double.random(in: range, using: &rng)
        if kind == .integer { v = v.rounded().clamped(to: range) }
        if kind == .length { return .length(Length(v)) }
        return .number(v)
    }
}

extension Comparable {
    func clamped(to r: ClosedRange<Self>) -> Self { min(max(self, r.lowerBound), r.upperBound) }
}
