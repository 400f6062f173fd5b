/// A chain as configured: filters applied in order, the output of one feeding the next.
public struct ChainSpec: Sendable, Hashable {
    public var steps: [FilterInvocation]

    public init(_ steps: [FilterInvocation]) { self.steps = steps }

    /// Draws every `random` value with `seed` and builds the filters.
    public func resolve(seed: UInt64, registry: FilterRegistry = .standard) throws(ParameterError) -> [ResolvedFilter] {
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
