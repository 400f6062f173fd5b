/// What an analysis pass measures on a filter's input, for filters that need a statistic of the
/// whole image first (auto levels, normalise, trim, smart crop).
public struct StatisticRequest: Sendable, Hashable {
    /// Per row and per column, the least and greatest straight value of each channel, and the
    /// top-left pixel: what ``ImageStatistics/boundingBox(differingFrom:by:)`` needs to find
    /// what differs from a background chosen after measuring (trim's corner colour).
    var lineExtremes: Bool
    /// The histograms, extremes and sums of the whole image (and the map, when asked for); off
    /// for a pass that needs only the line extremes (trim), which then costs less than half.
    var distribution: Bool
    /// The size of ``ImageStatistics/map``, a box-filtered low-resolution copy (for saliency or
    /// entropy); nil: no map.
    var mapSize: Size?
    /// The statistic may be measured on a preview: a reduced decode (a JPEG at 1/8 its size, by
    /// the decoder's DCT scaling) when the loader offers one and nothing but point operations
    /// comes before the filter. Histograms, extremes, means and maps change little; the
    /// measured ``ImageStatistics/size`` is then the preview's. Never with ``lineExtremes``:
    /// a bounding box must be exact.
    var preview: Bool

    init(lineExtremes: Bool = false, distribution: Bool = true, mapSize: Size? = nil, preview: Bool = false) {
        self.lineExtremes = lineExtremes
        self.distribution = distribution
        self.mapSize = mapSize
        self.preview = preview
    }
}

/// A statistic of a whole image, computed strip by strip (in parallel) and folded in order.
/// Colour values are straight (unpremultiplied); coordinates are the measured image's.
public struct ImageStatistics: Sendable {
    /// The size of the image measured.
    public var size: Size
    /// The size of the image the statistic stands for: ``size``, or the full-size image when a
    /// preview was measured (coordinates of the map and box then scale by fullSize / size).
    var fullSize: Size
    /// Per channel (R, G, B, A), 256 bins over 0…1 (values outside land in the end bins).
    var histogram: [[Int]]
    /// 256 bins of Rec. 709 luminance (0.2126 R + 0.7152 G + 0.0722 B) over 0…1, as the channels'.
    var luminanceHistogram: [Int]
    var minimum: Pixel
    var maximum: Pixel
    /// Sums per channel; ``mean`` divides by the pixel count.
    var sum: SIMD4<Double>
    /// With ``StatisticRequest/lineExtremes``: per row of this statistic's strip (from
    /// ``firstRow``) and per column of the image, the least and greatest value of each channel.
    var rowLow = [Pixel](), rowHigh = [Pixel](), columnLow = [Pixel](), columnHigh = [Pixel]()
    var firstRow = 0
    /// The pixel at (0, 0), straight, once the strip holding it is measured (with line extremes).
    var topLeft: Pixel?
    /// Per cell of the request's map: sums of premultiplied pixels and their count.
    var mapSums: [SIMD4<Double>]
    var mapCounts: [Int]
    let mapSize: Size?

    /// Box-filtered averages (premultiplied), when the request asked for a map.
    var map: Image? {
        mapSize.map { m in
            Image(width: m.width, height: m.height, pixels: (0..<m.area).map { i in
                let a = mapSums[i] / Double(max(mapCounts[i], 1))
                return Pixel(Float(a[0]), Float(a[1]), Float(a[2]), Float(a[3]))
            })
        }
    }

    var pixelCount: Int { size.area }
    var mean: Pixel {
        guard pixelCount > 0 else { return .zero }
        let m = sum / Double(pixelCount)
        return Pixel(Float(m[0]), Float(m[1]), Float(m[2]), Float(m[3]))
    }

    /// Nothing measured yet, for an image of `size`.
    init(size: Size, request: StatisticRequest) {
        self.size = size
        fullSize = size
        histogram = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
        luminanceHistogram = [Int](repeating: 0, count: 256)
        minimum = Pixel(repeating: .infinity)
        maximum = Pixel(repeating: -.infinity)
        sum = .zero
        if request.lineExtremes {
            columnLow = [Pixel](repeating: Pixel(repeating: .infinity), count: size.width)
            columnHigh = [Pixel](repeating: Pixel(repeating: -.infinity), count: size.width)
        }
        mapSize = request.mapSize
        mapSums = [SIMD4<Double>](repeating: .zero, count: request.mapSize?.area ?? 0)
        mapCounts = [Int](repeating: 0, count: request.mapSize?.area ?? 0)
    }

    /// Adds the pixels of `rows` (a strip of the image). The counts go to flat local buffers
    /// first (nested arrays cost a uniqueness check per access) and are added once per strip.
    mutating func measure(_ rows: RegionView, request: StatisticRequest) {
        let r = rows.rect
        if request.lineExtremes { measureLines(rows) }
        guard request.distribution else { return }
        // The map cell of each column, once per strip (a division per pixel otherwise).
        let cellColumns = mapSize.map { m in (0..<r.width).map { min(($0 + r.x) * m.width / size.width, m.width - 1) } } ?? []
        var counts = [Int](repeating: 0, count: 5 * 256)
        var low = minimum, high = maximum, total = sum
        // Taken out of self while the loop runs (swapped, not copied), so no access overlaps.
        var sums = [SIMD4<Double>](), cellCounts = [Int]()
        swap(&sums, &mapSums)
        swap(&cellCounts, &mapCounts)
        defer {
            swap(&sums, &mapSums)
            swap(&cellCounts, &mapCounts)
        }
        counts.withUnsafeMutableBufferPointer { counts in
            sums.withUnsafeMutableBufferPointer { mapSums in
                cellCounts.withUnsafeMutableBufferPointer { mapCounts in
                    for y in r.y..<r.maxY {
                        let row = rows.pointer(r.x, y)
                        let cellRow = mapSize.map { m in min(y * m.height / size.height, m.height - 1) * m.width } ?? 0
                        for x in 0..<r.width {
                            let premultiplied = row[x], p = premultiplied.unpremultiplied
                            low = Self.lanewiseMin(low, p)
                            high = Self.lanewiseMax(high, p)
                            total += SIMD4<Double>(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3]))
                            for c in 0..<4 { counts[c * 256 + Self.bin(p[c])] += 1 }
                            counts[4 * 256 + Self.bin(0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])] += 1
                            if mapSize != nil {
                                let i = cellRow + cellColumns[x]
                                mapSums[i] += SIMD4<Double>(Double(premultiplied[0]), Double(premultiplied[1]),
                                                            Double(premultiplied[2]), Double(premultiplied[3]))
                                mapCounts[i] += 1
                            }
                        }
                    }
                }
            }
        }
        (minimum, maximum, sum) = (low, high, total)
        for c in 0..<4 { for b in 0..<256 { histogram[c][b] += counts[c * 256 + b] } }
        for b in 0..<256 { luminanceHistogram[b] += counts[4 * 256 + b] }
    }

    /// The extremes of each row of `rows` and of each column over them.
    private mutating func measureLines(_ rows: RegionView) {
        let r = rows.rect
        firstRow = r.y
        // Flat pointers: an array's uniqueness check per access would cost more than the loop.
        columnLow.withUnsafeMutableBufferPointer { columnLow in
            columnHigh.withUnsafeMutableBufferPointer { columnHigh in
                let lows = columnLow.baseAddress! + r.x, highs = columnHigh.baseAddress! + r.x
                for y in r.y..<r.maxY {
                    let row = rows.pointer(r.x, y)
                    var low = Pixel(repeating: .infinity), high = Pixel(repeating: -.infinity)
                    for x in 0..<r.width {
                        let p = row[x].unpremultiplied
                        low = Self.lanewiseMin(low, p)
                        high = Self.lanewiseMax(high, p)
                        lows[x] = Self.lanewiseMin(lows[x], p)
                        highs[x] = Self.lanewiseMax(highs[x], p)
                    }
                    rowLow.append(low)
                    rowHigh.append(high)
                }
            }
        }
        if r.y == 0, r.x == 0, r.width > 0, r.height > 0 { topLeft = rows.pointer(0, 0).pointee.unpremultiplied }
    }

    /// The smallest rectangle holding every pixel that differs from `background` by more than
    /// `threshold` in some channel (alpha included); empty when none does. Exact from the line
    /// extremes: a row (or column) is all background exactly when, in every channel, its least
    /// and greatest values lie within `threshold` of the background's.
    func boundingBox(differingFrom background: Pixel, by threshold: Float) -> Rect {
        func differs(_ low: Pixel, _ high: Pixel) -> Bool {
            (0..<4).contains { c in background[c] - low[c] > threshold || high[c] - background[c] > threshold }
        }
        let rows = rowLow.indices.filter { differs(rowLow[$0], rowHigh[$0]) }
        let columns = columnLow.indices.filter { differs(columnLow[$0], columnHigh[$0]) }
        guard let top = rows.first, let bottom = rows.last, let left = columns.first, let right = columns.last else {
            return Rect(x: 0, y: 0, width: 0, height: 0)
        }
        return Rect(x: left, y: firstRow + top, width: right - left + 1, height: bottom - top + 1)
    }

    /// `self` (the rows above) followed by `next` (the rows below).
    mutating func fold(_ next: ImageStatistics) {
        for c in 0..<4 { for b in 0..<256 { histogram[c][b] += next.histogram[c][b] } }
        for b in 0..<256 { luminanceHistogram[b] += next.luminanceHistogram[b] }
        minimum = Self.lanewiseMin(minimum, next.minimum)
        maximum = Self.lanewiseMax(maximum, next.maximum)
        sum += next.sum
        // Strips arrive in order: the rows below follow these.
        if rowLow.isEmpty { firstRow = next.firstRow }
        rowLow += next.rowLow
        rowHigh += next.rowHigh
        for x in columnLow.indices {
            columnLow[x] = Self.lanewiseMin(columnLow[x], next.columnLow[x])
            columnHigh[x] = Self.lanewiseMax(columnHigh[x], next.columnHigh[x])
        }
        topLeft = topLeft ?? next.topLeft
        for i in mapSums.indices {
            mapSums[i] += next.mapSums[i]
            mapCounts[i] += next.mapCounts[i]
        }
    }

    // Lane by lane: the generic pointwiseMin/Max are not specialised here (a call per lane).
    @inline(__always) static func lanewiseMin(_ a: Pixel, _ b: Pixel) -> Pixel {
        Pixel(Swift.min(a[0], b[0]), Swift.min(a[1], b[1]), Swift.min(a[2], b[2]), Swift.min(a[3], b[3]))
    }

    @inline(__always) static func lanewiseMax(_ a: Pixel, _ b: Pixel) -> Pixel {
        Pixel(Swift.max(a[0], b[0]), Swift.max(a[1], b[1]), Swift.max(a[2], b[2]), Swift.max(a[3], b[3]))
    }

    /// The bin of a value: 0…1 in 256 steps, rounded (8-bit input lands exactly on its bin).
    /// (+0.5 and truncation: `rounded()` is a libm call per value.)
    @inline(__always) static func bin(_ v: Float) -> Int { Int(min(max(v, 0), 1) * 255 + 0.5) }
}
