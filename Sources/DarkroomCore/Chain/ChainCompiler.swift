/// Turns resolved filters into an executable plan: identity filters are dropped, adjacent point
/// filters are fused into one pass (neighbouring colour matrices multiplied into one, tone
/// curves composed), region filters stay as they are, and analysis filters wait for their
/// statistic (``CompiledChain/resolvingAnalyses(source:executor:makeSource:)``).
public enum ChainCompiler {
    public static func compile(_ filters: [ResolvedFilter]) -> CompiledChain {
        var stages = [CompiledChain.Stage]()
        for f in filters { append(f.filter, named: f.name, to: &stages) }
        return CompiledChain(stages: stages)
    }

    /// Adds `filter` to `stages`, fused into the point stage before it when it is a point filter.
    static func append(_ filter: any Filter, named name: String, to stages: inout [CompiledChain.Stage]) {
        guard !filter.isIdentity else { return }
        switch filter.kind {
        case .analysis(let analysis):
            stages.append(.analysis(name: name, filter: analysis))
        case .point(let point):
            if case .point(var names, let program)? = stages.last {
                stages.removeLast()
                names.append(name)
                stages.append(.point(names: names, program: PointProgram(program.operations + point.pointOperations)))
            } else {
                stages.append(.point(names: [name], program: PointProgram(point.pointOperations)))
            }
        case .region(let region):
            stages.append(.region(name: name, filter: region))
        }
    }
}
