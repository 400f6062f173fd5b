import DarkroomCodecs
import DarkroomCore

/// The report forms of what the codecs and the core describe.
extension JobReport.Input {
    mutating func fill(from info: ImageInfo) {
        format = info.format.rawValue
        width = info.width
        height = info.height
        colorSpace = info.colorSpace
        bitDepth = info.bitDepth
        orientation = info.orientation
        icc = info.icc?.problem == nil ? info.icc?.name : nil
        pages = info.pages
    }
}

extension JobReport.ChainStep {
    /// The report form of a resolved filter.
    init(_ filter: ResolvedFilter, registry: FilterRegistry = .standard) {
        let descriptor = try? registry.descriptor(named: filter.name)
        var parameters = [String: ReportValue]()
        for (name, value) in filter.parameters.entries {
            parameters[name] = ReportValue(value, kind: descriptor?.parameter(named: name)?.kind)
        }
        self.init(filter: filter.name, parameters: parameters, random: filter.parameters.randomNames.sorted())
    }
}
