import Foundation

/// How `crop` and `resize fit: cover` choose their window when `gravity` is `attention` or
/// `entropy`, as libvips' `smartcrop` does. Both work on the analysis pass's 128 × 128 map (the
/// image box-averaged into cells), so they cost one more decode of the chain before the crop
/// and a few microseconds of arithmetic:
/// The map is measured on a preview when the loader gives one (a JPEG at 1/8, when only point
/// filters come before): a 128 × 128 map needs no more.
/// - **attention** (vips' default): each cell scores `2·edges + saturation + skin/2` — edges the
///   absolute Laplacian of the luminance, saturation `max − min` of R, G, B, skin 1 for cells of
///   skin-like colour (R > 0.35, R > G > B, R − B > 0.12) — the scores are smoothed by two 3×3
///   box passes, and the window is centred on the highest score (clamped to the image), which
///   is libvips' method with its weights simplified.
/// - **entropy**: while the window is wider (or taller) than wanted, the column (or row) of
///   cells at either side whose luminance histogram (16 bins) has the lower Shannon entropy is
///   cut away; the window is then centred on what is left — libvips' slice-by-slice search.
enum InterestMeasure: String, Sendable, CaseIterable {
    case attention, entropy

    /// The map the analysis pass measures.
    static let mapSize = Size(width: 128, height: 128)

    /// A `size` window of an image, chosen by this measure from its statistics.
    func window(of size: Size, in statistics: ImageStatistics) -> Rect {
        let image = statistics.fullSize
        guard let grid = InterestGrid(statistics), size.width < image.width || size.height < image.height else {
            let o = Gravity.center.origin(of: size, in: image)
            return Rect(x: o.x, y: o.y, width: size.width, height: size.height)
        }
        // The grid is in the measured image's pixels (a preview's, maybe): scale to the full image.
        let sx = Double(image.width) / Double(statistics.size.width), sy = Double(image.height) / Double(statistics.size.height)
        let measured: (x: Double, y: Double)
        switch self {
        case .attention: measured = grid.attentionCentre()
        case .entropy:
            measured = grid.entropyCentre(keeping: Size(width: max(1, Int((Double(size.width) / sx).rounded())),
                                                        height: max(1, Int((Double(size.height) / sy).rounded()))))
        }
        let centre = (x: measured.x * sx, y: measured.y * sy)
        let x = min(max(Int((centre.x - Double(size.width) / 2).rounded()), 0), image.width - size.width)
        let y = min(max(Int((centre.y - Double(size.height) / 2).rounded()), 0), image.height - size.height)
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }
}

/// The map's cells that hold pixels (an image narrower than the map leaves some columns
/// empty), as a dense grid with the pixel range each column and row covers.
struct InterestGrid {
    let columns: [Range<Int>]
    let rows: [Range<Int>]
    /// Straight RGB per cell, row by row.
    let cells: [Pixel]

    init?(_ statistics: ImageStatistics) {
        guard let map = statistics.map, let m = statistics.mapSize else { return nil }
        let size = statistics.size
        // Cell i holds the pixels x with x·m / size = i (ImageStatistics.measure).
        func ranges(_ cells: Int, _ extent: Int) -> [Range<Int>] {
            var out = [Range<Int>](repeating: 0..<0, count: cells)
            for x in 0..<extent {
                let i = min(x * cells / extent, cells - 1)
                out[i] = out[i].isEmpty ? x..<(x + 1) : out[i].lowerBound..<(x + 1)
            }
            return out
        }
        let xs = ranges(m.width, size.width), ys = ranges(m.height, size.height)
        let keepX = xs.indices.filter { !xs[$0].isEmpty }, keepY = ys.indices.filter { !ys[$0].isEmpty }
        guard !keepX.isEmpty, !keepY.isEmpty else { return nil }
        columns = keepX.map { xs[$0] }
        rows = keepY.map { ys[$0] }
        cells = keepY.flatMap { j in keepX.map { i in map[i, j].unpremultiplied } }
    }

    var width: Int { columns.count }
    var height: Int { rows.count }

    func luminance(_ i: Int, _ j: Int) -> Float {
        let p = cells[j * width + i]
        return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
    }

    /// Pixel coordinates of the centre of the best-scoring cell.
    func attentionCentre() -> (x: Double, y: Double) {
        var score = [Float](repeating: 0, count: cells.count)
        for j in 0..<height {
            for i in 0..<width {
                let l = luminance(i, j)
                let around = luminance(max(i - 1, 0), j) + luminance(min(i + 1, width - 1), j)
                    + luminance(i, max(j - 1, 0)) + luminance(i, min(j + 1, height - 1))
                let p = cells[j * width + i]
                let saturation = max(p[0], p[1], p[2]) - min(p[0], p[1], p[2])
                let skin: Float = p[0] > 0.35 && p[0] > p[1] && p[1] > p[2] && p[0] - p[2] > 0.12 ? 1 : 0
                score[j * width + i] = 2 * abs(4 * l - around) + saturation + skin / 2
            }
        }
        score = smoothed(smoothed(score))
        let best = score.indices.max { score[$0] < score[$1] }!
        let i = best % width, j = best / width
        return (Double(columns[i].lowerBound + columns[i].upperBound) / 2, Double(rows[j].lowerBound + rows[j].upperBound) / 2)
    }

    /// A 3×3 box average, edges clamped.
    private func smoothed(_ v: [Float]) -> [Float] {
        var out = v
        for j in 0..<height {
            for i in 0..<width {
                var s: Float = 0
                for dj in -1...1 { for di in -1...1 { s += v[min(max(j + dj, 0), height - 1) * width + min(max(i + di, 0), width - 1)] } }
                out[j * width + i] = s / 9
            }
        }
        return out
    }

    /// Shannon entropy of the luminance of some cells, in 16 bins.
    private func entropy(_ cells: [(Int, Int)]) -> Double {
        var bins = [Int](repeating: 0, count: 16)
        for (i, j) in cells { bins[min(max(Int(luminance(i, j) * 16), 0), 15)] += 1 }
        let n = Double(cells.count)
        return -bins.filter { $0 > 0 }.map { Double($0) / n }.map { $0 * log2($0) }.reduce(0, +)
    }

    /// Cuts the duller side, a column or row of cells at a time, while the rest is larger than `size`.
    func entropyCentre(keeping size: Size) -> (x: Double, y: Double) {
        var left = 0, right = width - 1, top = 0, bottom = height - 1
        while right > left, columns[right].upperBound - columns[left].lowerBound - min(columns[left].count, columns[right].count) >= size.width {
            let l = entropy((top...bottom).map { (left, $0) }), r = entropy((top...bottom).map { (right, $0) })
            if l < r { left += 1 } else { right -= 1 }
        }
        while bottom > top, rows[bottom].upperBound - rows[top].lowerBound - min(rows[top].count, rows[bottom].count) >= size.height {
            let t = entropy((left...right).map { ($0, top) }), b = entropy((left...right).map { ($0, bottom) })
            if t < b { top += 1 } else { bottom -= 1 }
        }
        return (Double(columns[left].lowerBound + columns[right].upperBound) / 2, Double(rows[top].lowerBound + rows[bottom].upperBound) / 2)
    }
}

/// `crop gravity=attention|entropy`: measures the image, then crops the window the measure picks.
struct SmartCrop: AnalysisFilter {
    static let descriptor = CropFilter.descriptor
    let crop: CropFilter
    let measure: InterestMeasure

    init(crop: CropFilter, measure: InterestMeasure) {
        self.crop = crop
        self.measure = measure
    }

    init(parameters: ResolvedParameters) throws(ParameterError) {
        crop = try CropFilter(parameters: parameters)
        measure = crop.interest ?? .attention
    }

    var statisticRequest: StatisticRequest { StatisticRequest(mapSize: InterestMeasure.mapSize, preview: true) }

    func resolved(with statistics: ImageStatistics) -> any Filter {
        MeasuredCrop(rect: measure.window(of: crop.rect(in: statistics.fullSize).size, in: statistics))
    }

    /// The centred crop: the same size, so the same limits and memory.
    var worstCase: any Filter {
        var centred = crop
        centred.interest = nil
        return centred
    }
}

/// `resize fit=cover gravity=attention|entropy`: measures the image, then resizes keeping the
/// window the measure picks (as `vips thumbnail --smartcrop`). It may start from a
/// shrunk-on-load source like the resize itself: the window is kept as a fraction of the
/// overflow (``ResizeFilter/anchor``), the same at any scale.
struct SmartResize: AnalysisFilter, SourceShrinkable {
    static let descriptor = ResizeFilter.descriptor
    let resize: ResizeFilter
    /// Region-shaped only so a source may shrink on load before it; it runs as an analysis.
    var kind: FilterKind { .analysis(self) }

    init(resize: ResizeFilter) { self.resize = resize }

    init(parameters: ResolvedParameters) throws(ParameterError) {
        resize = try ResizeFilter(parameters: parameters)
    }

    var statisticRequest: StatisticRequest { StatisticRequest(mapSize: InterestMeasure.mapSize, preview: true) }

    func resolved(with statistics: ImageStatistics) -> any Filter {
        var kept = resize
        kept.interest = nil
        let image = statistics.fullSize
        guard let measure = resize.interest, image.area > 0 else { return kept }
        // The part of the image the cover keeps, in the measured image's full-size pixels.
        let p = resize.target.plan(for: image, fit: .cover, noUpscale: resize.noUpscale)
        let window = Size(width: min(image.width, max(1, Int((Double(p.outputSize.width) * p.scaleX).rounded()))),
                          height: min(image.height, max(1, Int((Double(p.outputSize.height) * p.scaleY).rounded()))))
        let chosen = measure.window(of: window, in: statistics)
        func fraction(_ origin: Int, _ free: Int) -> Double { free > 0 ? Double(origin) / Double(free) : 0.5 }
        kept.anchor = (fraction(chosen.x, image.width - window.width), fraction(chosen.y, image.height - window.height))
        return kept
    }

    /// The centred cover: the same size, so the same limits and memory.
    var worstCase: any Filter {
        var centred = resize
        centred.interest = nil
        return centred
    }

    // An analysis stage first in a chain may start from a shrunk source, as the resize would.
    func outputSize(for input: Size) -> Size { resize.outputSize(for: input) }
    func plan(for input: Size) -> KernelPlan { resize.plan(for: input) }
    func sourceReduction(for source: Size) -> Double { resize.sourceReduction(for: source) }
    func sourceRenderSize(for source: Size) -> Size { resize.sourceRenderSize(for: source) }
    func forShrunkSource(original: Size, shrunk: Size) -> SmartResize {
        SmartResize(resize: resize.forShrunkSource(original: original, shrunk: shrunk))
    }
}
