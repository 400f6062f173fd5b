/// What reading and resolving a sub-chain (``ParameterKind/chain``) needs beyond its text: the
/// registry its steps name, the resolver that loads the files they name, the job's facts for
/// their placeholders, and how deep inside other sub-chains it lies. The chain that holds the
/// sub-chain passes its own, so a group's steps are checked against the same filters as the
/// chain around them, and Core needs to know no module that registers filters.
public struct ChainContext: Sendable {
    var registry: FilterRegistry
    var assets: any AssetResolver
    var facts: InputFacts
    /// 0 for a chain's own steps, 1 inside a group, 2 inside a group inside a group…
    var depth: Int

    /// Sub-chains nest at most this deep (a group in a group in a group in a group): reading
    /// recurses once per level, and no picture needs more.
    static let maximumDepth = 4

    public init(registry: FilterRegistry = .standard, assets: any AssetResolver = NoAssets(),
                facts: InputFacts = InputFacts(), depth: Int = 0) {
        self.registry = registry
        self.assets = assets
        self.facts = facts
        self.depth = depth
    }

    /// The context of the steps of a sub-chain written here.
    var inner: ChainContext {
        var c = self
        c.depth += 1
        return c
    }
}
