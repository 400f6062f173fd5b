/// Histogram equalisation, as `vips hist_equal`: each value becomes the fraction of the image's
/// pixels at or below it (the cumulative histogram scaled to 0…1: `cum[v] / cum[255]`), so the
/// tones spread evenly over the range. `on: channels` (vips' default) equalises each channel by
/// its own histogram; `on: luminance` builds one curve from the luminance and applies it to R,
/// G and B alike, so colours keep their balance. Core Image has no equivalent.
struct EqualizeFilter: AnalysisFilter {
    static let descriptor = FilterDescriptor(
        name: "equalize", displayName: "Equalize", categories: ["color", "analysis"],
        description: "Spreads the tones evenly: each value becomes the share of pixels at or below it (cumulative "
            + "histogram), per channel or from the luminance.",
        counterpart: "vips hist_equal / ImageMagick -equalize",
        parameters: [
            ParameterDescriptor("on", .choice(["channels", "luminance"]),
                                "channels: each channel by its own histogram (as vips); luminance: one curve for R, G and B.",
                                default: .choice("channels")),
        ])

    let perChannel: Bool

    init(parameters: ResolvedParameters) {
        perChannel = Self.described(parameters).choice("on") == "channels"
    }

    var statisticRequest: StatisticRequest { StatisticRequest() }

    func resolved(with statistics: ImageStatistics) -> any Filter {
        let tables = perChannel ? (0..<3).map { Self.cumulative(statistics.histogram[$0]) }
            : [[Float]](repeating: Self.cumulative(statistics.luminanceHistogram), count: 3)
        return MeasuredTables(tables: tables)
    }

    var worstCase: any Filter { MeasuredTables(tables: []) }

    /// `cum[v] / cum[255]` for the 256 bins.
    static func cumulative(_ histogram: [Int]) -> [Float] {
        let total = max(histogram.reduce(0, +), 1)
        var running = 0
        return histogram.map { running += $0; return Float(Double(running) / Double(total)) }
    }
}

/// What equalisation resolves to: the per-channel tables (none: the identity, the plan before
/// anything is measured).
struct MeasuredTables: PointFilter {
    static let descriptor = FilterDescriptor(name: "measured_tables", displayName: "Measured tables", categories: [],
                                             description: "Per-channel tables computed from a histogram.")
    let tables: [[Float]]
    init(tables: [[Float]]) { self.tables = tables }
    init(parameters: ResolvedParameters) { tables = [] }
    var pointOperations: [any PointOperation] { tables.isEmpty ? [] : [ChannelTables(tables: tables)] }
}

/// One 256-entry table per colour channel, looked up at each value's bin (the bin the
/// histogram counted it in). Alpha is kept.
struct ChannelTables: PointOperation {
    let tables: [[Float]]

    var preservesGrey: Bool { tables[0] == tables[1] && tables[1] == tables[2] }
    var preservesOpacity: Bool { true }
    var isChannelwise: Bool { true }

    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let (r, g, b) = (tables[0], tables[1], tables[2])
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = Pixel(r[ImageStatistics.bin(p[0])], g[ImageStatistics.bin(p[1])], b[ImageStatistics.bin(p[2])], p[3])
        }
    }
}
