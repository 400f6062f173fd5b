/// Turns resolved filters into an executable plan: identity filters are dropped, adjacent point
/// filters are fused into one pass (adjacent colour matrices multiplied into one), region filters
/// stay as they are.
public enum ChainCompiler {
    public static func compile(_ filters: [ResolvedFilter]) -> CompiledChain {
        var stages = [CompiledChain.Stage]()
        for f in filters where !f.filter.isIdentity {
            if let point = f.filter as? any PointFilter {
                if case .color(var names, var ops)? = stages.last {
                    stages.removeLast()
                    names.append(f.name)
                    ops = fuse(ops + point.colorOperations)
                    stages.append(.color(names: names, operations: ops))
                } else {
                    stages.append(.color(names: [f.name], operations: fuse(point.colorOperations)))
                }
            } else if let region = f.filter as? any RegionFilter {
                stages.append(.region(name: f.name, filter: region))
            }
        }
        return CompiledChain(stages: stages)
    }

    /// Multiplies neighbouring matrices together and drops identities.
    static func fuse(_ ops: [ColorOperation]) -> [ColorOperation] {
        var out = [ColorOperation]()
        for op in ops {
            switch (out.last, op) {
            case (.matrix(let a)?, .matrix(let b)):
                out[out.count - 1] = .matrix(a.then(b))
            case (.power(let a)?, .power(let b)):
                out[out.count - 1] = .power(a * b)
            default:
                out.append(op)
            }
            if case .matrix(let m)? = out.last, m.isIdentity { out.removeLast() }
            if case .power(let p)? = out.last, p == 1 { out.removeLast() }
        }
        return out
    }
}
