extension ParameterDescriptor {
    /// The value of this parameter for one job: `argument` as given, `random` drawn from the
    /// slider range, records resolved field by field (their own `random`s drawn in the order
    /// written, their defaults filled in), a sub-chain's steps resolved and built with `context`
    /// (the same generator, so the job's seed reproduces them too).
    func resolve(_ argument: Argument, using rng: inout SeededGenerator,
                        in context: ChainContext = ChainContext()) throws(ParameterError) -> ParameterValue {
        switch argument {
        case .value(let v): return v
        case .random: return draw(using: &rng)
        case .records(let items):
            var records = [ResolvedParameters]()
            for item in items { records.append(Self.resolveFields(item, of: kind.fields ?? [], using: &rng)) }
            return .records(records)
        case .record(let fields): return .record(Self.resolveFields(fields, of: kind.fields ?? [], using: &rng))
        case .chain(let steps):
            var built = [ResolvedFilter]()
            for (i, step) in steps.enumerated() {
                do { built.append(try step.build(using: &rng, in: context.inner)) } catch { throw error.inside(.key(step.name)).inside(.index(i)) }
            }
            return .chain(built)
        }
    }

    private static func resolveFields(_ arguments: [NamedArgument], of fields: [ParameterDescriptor],
                                      using rng: inout SeededGenerator) -> ResolvedParameters {
        var resolved = ResolvedParameters()
        for a in arguments {
            guard let field = fields.first(where: { $0.name == a.name }) else { continue }
            let isRandom = if case .random = a.argument { true } else { false }
            // Fields are never chains (ParameterDescriptor refuses them), so nothing here throws.
            guard let value = try? field.resolve(a.argument, using: &rng) else { continue }
            resolved.append(a.name, value, random: isRandom)
        }
        for field in fields where !resolved.has(field.name) {
            if let d = field.defaultValue { resolved.append(field.name, d, random: false) }
        }
        return resolved
    }
}
