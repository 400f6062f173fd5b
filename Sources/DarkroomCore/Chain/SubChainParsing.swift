extension ParameterDescriptor {
    /// A sub-chain (``ParameterKind/chain``): a list of steps, each a filter name or a one-key
    /// mapping of a name to its parameters, checked against `context`'s registry as a chain's
    /// steps are. An error says where it is: `[1]`, `sepia`, `intensity` for the second step's
    /// intensity. Sub-chains nest at most ``ChainContext/maximumDepth`` deep.
    func parseChain(_ raw: RawValue, in context: ChainContext) throws(ParameterError) -> Argument {
        guard context.depth < ChainContext.maximumDepth else {
            throw ParameterError("sub-chains nest more than \(ChainContext.maximumDepth) deep (a group inside a group…): "
                                 + "flatten them")
        }
        guard case .list(let items) = raw else { throw fail(raw) }
        guard !items.isEmpty else { throw ParameterError("\(expectation), got an empty list") }
        var steps = [FilterInvocation]()
        for (i, item) in items.enumerated() {
            do { steps.append(try FilterInvocation(step: item, in: context.inner)) } catch { throw error.inside(.index(i)) }
        }
        return .chain(steps)
    }
}
