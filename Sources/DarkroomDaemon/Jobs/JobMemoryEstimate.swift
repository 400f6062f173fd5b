import DarkroomCore

/// How much memory a job's pixels need at their peak, known before it starts; the daemon's
/// ``MemoryBudget`` lets jobs start only while their estimates fit together.
///
/// Today's engine keeps every stage as a whole float image (16 bytes a pixel) and frees a
/// stage's input once the stage is done, so an output peaks while two consecutive stages
/// exist; the decoded source (also float) is counted on top, conservatively. Outputs are
/// rendered one after the other, so the job's peak is that of its largest output. The
/// streaming engine will replace this body with its own (width- and chain-dependent) figure.
enum JobMemoryEstimate {
    static let bytesPerPixel = 16

    static func bytes(for plan: JobPlan) -> Int {
        let source = plan.sourceSize.area
        let peaks = plan.outputs.map { output in
            let sizes = [source] + output.stageSizes.map(\.area)
            let pairs = zip(sizes, sizes.dropFirst()).map { $0 + $1 }
            return (pairs.max() ?? 0) + source
        }
        let (product, overflow) = (peaks.max() ?? source).multipliedReportingOverflow(by: bytesPerPixel)
        return overflow ? .max : product
    }
}
