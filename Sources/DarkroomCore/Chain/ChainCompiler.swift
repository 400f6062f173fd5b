/// Turns resolved filters into an executable plan: identity filters are dropped, adjacent point
/// filters are fused into one pass (neighbouring colour matrices multiplied into one, tone
/// curves composed), region filters stay as they are.
public enum ChainCompiler {
    public static func compile(_ filters: [ResolvedFilter]) -> CompiledChain {
        var stages = [CompiledChain.Stage]()
        for f in filters where !f.filter.isIdentity {
            if let point = f.filter as? any PointFilter {
                if case .point(var names, let program)? = stages.last {
                    stages.removeLast()
                    names.append(f.name)
                    stages.append(.point(names: names, program: PointProgram(program.operations + point.pointOperations)))
                } else {
                    stages.append(.point(names: [f.name], program: PointProgram(point.pointOperations)))
                }
            } else if let region = f.filter as? any RegionFilter {
                stages.append(.region(name: f.name, filter: region))
            }
        }
        return CompiledChain(stages: stages)
    }
}
