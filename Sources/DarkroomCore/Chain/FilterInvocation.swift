/// One step of a chain as the user wrote it: a filter name and checked arguments, some of
/// which may be `random`. Resolving draws the random ones and fills in defaults.
public struct FilterInvocation: Sendable, Hashable {
    public var name: String
    public var arguments: [(name: String, argument: Argument)]

    /// Checks a step against the registry: the filter and every parameter must exist and every
    /// value must fit. Errors name the parameter (`resize.width: expected …`).
    /// Files that parameters name are loaded through `assets` once, to check them.
    public init(name: String, rawArguments: [(name: String, value: RawValue)],
                registry: FilterRegistry = .standard, assets: any AssetResolver = NoAssets()) throws(ParameterError) {
        let descriptor = try registry.descriptor(named: name)
        var arguments = [(name: String, argument: Argument)]()
        for (key, raw) in rawArguments {
            guard let p = descriptor.parameter(named: key) else {
                throw ParameterError("\(name): unknown parameter \"\(key)\""
                    + suggestionText(key, among: descriptor.parameters.map(\.name)))
            }
            guard !arguments.contains(where: { $0.name == key }) else {
                throw ParameterError("\(name).\(key): given twice")
            }
            do { arguments.append((key, try p.parse(raw))) } catch {
                throw ParameterError("\(name).\(key)\(error.locationText): \(error.message)")
            }
        }
        for p in descriptor.parameters where p.isRequired && !arguments.contains(where: { $0.name == p.name }) {
            throw ParameterError("\(name): needs \(p.name) (\(p.description))")
        }
        self.name = name
        self.arguments = arguments
        // Contradictions between parameters (resize with no size, say) are found now, not mid-job.
        var probe = SeededGenerator(seed: 0)
        _ = try resolve(using: &probe, registry: registry, assets: assets)
    }

    /// Parameters with defaults filled in, `random` drawn from each slider range and the files
    /// image and data-file parameters name loaded through `assets`.
    public func resolveParameters(using rng: inout SeededGenerator, registry: FilterRegistry,
                                  assets: any AssetResolver = NoAssets()) throws(ParameterError) -> ResolvedParameters {
        let descriptor = try registry.descriptor(named: name)
        var resolved = ResolvedParameters()
        for (key, argument) in arguments {
            let p = descriptor.parameter(named: key)!
            let isRandom = if case .random = argument { true } else { false }
            resolved.append(key, p.resolve(argument, using: &rng), random: isRandom)
        }
        for p in descriptor.parameters where !resolved.has(p.name) {
            if let d = p.defaultValue { resolved.append(p.name, d, random: false) }
        }
        for p in descriptor.parameters where p.kind == .image || p.kind == .dataFile {
            do { try resolved.load(p.name, kind: p.kind, from: assets) } catch {
                throw ParameterError("\(name).\(p.name): \(error.message)")
            }
        }
        return resolved
    }

    /// Resolves and builds the filter.
    public func resolve(using rng: inout SeededGenerator, registry: FilterRegistry,
                        assets: any AssetResolver = NoAssets()) throws(ParameterError) -> ResolvedFilter {
        let parameters = try resolveParameters(using: &rng, registry: registry, assets: assets)
        do {
            return ResolvedFilter(name: name, parameters: parameters,
                                  filter: try registry.make(name, parameters: parameters))
        } catch {
            // Keep where inside a value the filter found the problem (the third shape's points).
            throw ParameterError("\(name): \(error.message)", at: error.location)
        }
    }

    public static func == (l: Self, r: Self) -> Bool {
        l.name == r.name && l.arguments.elementsEqual(r.arguments) { $0.name == $1.name && $0.argument == $1.argument }
    }

    public func hash(into h: inout Hasher) {
        h.combine(name)
        for a in arguments { h.combine(a.name); h.combine(a.argument) }
    }
}

/// A built filter with the parameters it was built from (what the report records).
public struct ResolvedFilter: Sendable {
    public var name: String
    public var parameters: ResolvedParameters
    public var filter: any Filter

    public init(name: String, parameters: ResolvedParameters, filter: any Filter) {
        self.name = name
        self.parameters = parameters
        self.filter = filter
    }

    /// The filter's descriptor, from the filter itself: no registry lookup.
    public var descriptor: FilterDescriptor { type(of: filter).descriptor }
}

extension ParameterDescriptor {
    /// A value drawn uniformly inside the slider range (never outside it).
    public func draw(using rng: inout SeededGenerator) -> ParameterValue {
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
