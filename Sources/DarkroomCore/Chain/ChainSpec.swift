/// A chain as configured: filters applied in order, the output of one feeding the next, with
/// the registry its steps were checked against. The registry travels with the chain to the job
/// that resolves it and the report that lists it, so a program that registers filters of its own
/// (a test, a drawing module) needs no change to the core.
public struct ChainSpec: Sendable, Hashable {
    public var steps: [FilterInvocation]
    /// The filters the steps name.
    public var registry: FilterRegistry

    public init(_ steps: [FilterInvocation], registry: FilterRegistry = .standard) {
        self.steps = steps
        self.registry = registry
    }

    /// Draws every `random` value with `seed` and builds the filters.
    public func resolve(seed: UInt64) throws(ParameterError) -> [ResolvedFilter] {
        var rng = SeededGenerator(seed: seed)
        var out = [ResolvedFilter]()
        for step in steps { out.append(try step.resolve(using: &rng, registry: registry)) }
        return out
    }

    /// Whether any parameter is drawn at random (the report then records the seed).
    public var usesRandom: Bool {
        steps.contains { $0.arguments.contains { $0.argument == .random } }
    }
}
