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
    /// The report form of a resolved filter, described by the filter's own descriptor (whatever
    /// registry the chain was read with).
    init(_ filter: ResolvedFilter) {
        guard case .object(let parameters) = ReportValue(parametersOf: filter) else { preconditionFailure("parameters are an object") }
        self.init(filter: filter.name, parameters: parameters, random: filter.parameters.randomNames.sorted(),
                  assets: filter.parameters.assets.map { JobReport.Asset(path: $0.path, sha256: $0.sha256) }.sorted { $0.path < $1.path })
    }
}
