/// A chain as configured: filters applied in order, the output of one feeding the next, with
/// the registry its steps were checked against and the resolver that loads the files they name.
/// Both travel with the chain to the job that resolves it and the report that lists it, so a
/// program that registers filters of its own (a test, a drawing module) needs no change to the
/// core, and no job looks anything up in a global.
public struct ChainSpec: Sendable, Hashable {
    public var steps: [FilterInvocation]
    /// The filters the steps name.
    var registry: FilterRegistry
    /// Where image and data-file parameters are loaded from (the codecs' asset store). Not part
    /// of the chain's identity: the paths in the steps are.
    var assets: any AssetResolver

    public init(_ steps: [FilterInvocation], registry: FilterRegistry = .standard, assets: any AssetResolver = NoAssets()) {
        self.steps = steps
        self.registry = registry
        self.assets = assets
    }

    /// Draws every `random` value with `seed`, loads the files parameters name (again if they
    /// changed on disk), fills text placeholders from `facts` and builds the filters.
    public func resolve(seed: UInt64, facts: InputFacts = InputFacts()) throws(ParameterError) -> [ResolvedFilter] {
        var rng = SeededGenerator(seed: seed)
        var out = [ResolvedFilter]()
        for step in steps { out.append(try step.resolve(using: &rng, registry: registry, assets: assets, facts: facts)) }
        return out
    }

    /// Whether a text parameter names an EXIF placeholder (the job then reads the EXIF block).
    package var namesEXIF: Bool {
        steps.contains { $0.arguments.contains { $0.argument.texts.contains { $0.contains("{exif.") } } }
    }

    /// Whether any parameter is drawn at random (the report then records the seed).
    var usesRandom: Bool {
        steps.contains { $0.arguments.contains { $0.argument.drawsRandom } }
    }

    public static func == (l: Self, r: Self) -> Bool { l.steps == r.steps && l.registry == r.registry }

    public func hash(into h: inout Hasher) {
        h.combine(steps)
        h.combine(registry)
    }
}
