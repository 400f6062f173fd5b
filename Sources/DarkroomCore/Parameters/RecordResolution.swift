extension ParameterDescriptor {
    /// The value of this parameter for one job: `argument` as given, `random` drawn from the
    /// slider range, records resolved field by field (their own `random`s drawn in the order
    /// written, their defaults filled in).
    public func resolve(_ argument: Argument, using rng: inout SeededGenerator) -> ParameterValue {
        switch argument {
        case .value(let v): v
        case .random: draw(using: &rng)
        case .records(let items): .records(items.map { Self.resolveFields($0, of: kind.fields ?? [], using: &rng) })
        case .record(let fields): .record(Self.resolveFields(fields, of: kind.fields ?? [], using: &rng))
        }
    }

    private static func resolveFields(_ arguments: [NamedArgument], of fields: [ParameterDescriptor],
                                      using rng: inout SeededGenerator) -> ResolvedParameters {
        var resolved = ResolvedParameters()
        for a in arguments {
            guard let field = fields.first(where: { $0.name == a.name }) else { continue }
            let isRandom = if case .random = a.argument { true } else { false }
            resolved.append(a.name, field.resolve(a.argument, using: &rng), random: isRandom)
        }
        for field in fields where !resolved.has(field.name) {
            if let d = field.defaultValue { resolved.append(field.name, d, random: false) }
        }
        return resolved
    }
}
