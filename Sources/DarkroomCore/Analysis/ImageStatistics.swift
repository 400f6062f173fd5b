/// What an analysis pass measures on a filter's input, for filters that need a statistic of the
/// whole image first (auto levels, normalise, trim, smart crop).
public struct StatisticRequest: Sendable, Hashable {
    /// Pixels whose straight colour differs from this one by more than ``threshold`` (in any
    /// channel, alpha included) make up ``ImageStatistics/boundingBox``; nil: no box.
    public var background: Pixel?
    public var threshold: Float
    /// The size of ``ImageStatistics/map``, a box-filtered low-resolution copy (for saliency or
    /// entropy); nil: no map.
    public var mapSize: Size?
    /// The statistic may be measured on a preview: a reduced decode (a JPEG at 1/8 its size, by
    /// the decoder's DCT scaling) when the loader offers one and nothing but point operations
    /// comes before the filter. Histograms, extremes, means and maps change little; the
    /// measured ``ImageStatistics/size`` is then the preview's. Never with a ``background``:
    /// a bounding box must be exact.
    public var preview: Bool

    public init(background: Pixel? = nil, threshold: Float = 0, mapSize: Size? = nil, preview: Bool = false) {
        self.background = background
        self.threshold = threshold
        self.mapSize = mapSize
        self.preview = preview
    }
}

/// A statistic of a whole image, computed strip by strip (in parallel) and folded in order.
/// Colour values are straight (unpremultiplied); coordinates are the measured image's.
public struct ImageStatistics: Sendable {
    /// The size of the image measured.
    public var size: Size
    /// Per channel (R, G, B, A), 256 bins over 0…1 (values outside land in the end bins).
    public var histogram: [[Int]]
    /// 256 bins of Rec. 709 luminance (0.2126 R + 0.7152 G + 0.0722 B) over 0…1, as the channels'.
    public var luminanceHistogram: [Int]
    public var minimum: Pixel
    public var maximum: Pixel
    /// Sums per channel; ``mean`` divides by the pixel count.
    public var sum: SIMD4<Double>
    /// The smallest rectangle holding every pixel that differs from the request's background;
    /// empty when none does (or no background was asked for).
    public var boundingBox: Rect
    /// Per cell of the request's map: sums of premultiplied pixels and their count.
    var mapSums: [SIMD4<Double>]
    var mapCounts: [Int]
    let mapSize: Size?

    /// Box-filtered averages (premultiplied), when the request asked for a map.
    public var map: Image? {
        mapSize.map { m in
            Image(width: m.width, height: m.height, pixels: (0..<m.area).map { i in
                let a = mapSums[i] / Double(max(mapCounts[i], 1))
                return Pixel(Float(a[0]), Float(a[1]), Float(a[2]), Float(a[3]))
            })
        }
    }

    public var pixelCount: Int { size.area }
    public var mean: Pixel {
        guard pixelCount > 0 else { return .zero }
        let m = sum / Double(pixelCount)
        return Pixel(Float(m[0]), Float(m[1]), Float(m[2]), Float(m[3]))
    }

    /// Nothing measured yet, for an image of `size`.
    public init(size: Size, request: StatisticRequest) {
        self.size = size
        histogram = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
        luminanceHistogram = [Int](repeating: 0, count: 256)
        minimum = Pixel(repeating: .infinity)
        maximum = Pixel(repeating: -.infinity)
        sum = .zero
        boundingBox = Rect(x: 0, y: 0, width: 0, height: 0)
        mapSize = request.mapSize
        mapSums = [SIMD4<Double>](repeating: .zero, count: request.mapSize?.area ?? 0)
        mapCounts = [Int](repeating: 0, count: request.mapSize?.area ?? 0)
    }

    /// Adds the pixels of `rows` (a strip of the image).
    mutating func measure(_ rows: RegionView, request: StatisticRequest) {
        let r = rows.rect
        var box: Rect?
        for y in r.y..<r.maxY {
            let row = rows.pointer(r.x, y)
            var first = Int.max, last = Int.min
            for x in 0..<r.width {
                let premultiplied = row[x], p = premultiplied.unpremultiplied
                minimum = pointwiseMin(minimum, p)
                maximum = pointwiseMax(maximum, p)
                sum += SIMD4<Double>(Double(p[0]), Double(p[1]), Double(p[2]), Double(p[3]))
                for c in 0..<4 { histogram[c][Self.bin(p[c])] += 1 }
                luminanceHistogram[Self.bin(0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2])] += 1
                if let background = request.background, differs(p, background, by: request.threshold) {
                    first = min(first, x + r.x)
                    last = max(last, x + r.x)
                }
                if let m = mapSize {
                    let i = min(y * m.height / size.height, m.height - 1) * m.width + min((x + r.x) * m.width / size.width, m.width - 1)
                    mapSums[i] += SIMD4<Double>(Double(premultiplied[0]), Double(premultiplied[1]),
                                                Double(premultiplied[2]), Double(premultiplied[3]))
                    mapCounts[i] += 1
                }
            }
            if first <= last {
                let line = Rect(x: first, y: y, width: last - first + 1, height: 1)
                box = box.map { $0.union(line) } ?? line
            }
        }
        if let box { boundingBox = boundingBox.isEmpty ? box : boundingBox.union(box) }
    }

    /// `self` (the rows above) followed by `next` (the rows below).
    mutating func fold(_ next: ImageStatistics) {
        for c in 0..<4 { for b in 0..<256 { histogram[c][b] += next.histogram[c][b] } }
        for b in 0..<256 { luminanceHistogram[b] += next.luminanceHistogram[b] }
        minimum = pointwiseMin(minimum, next.minimum)
        maximum = pointwiseMax(maximum, next.maximum)
        sum += next.sum
        if !next.boundingBox.isEmpty { boundingBox = boundingBox.isEmpty ? next.boundingBox : boundingBox.union(next.boundingBox) }
        for i in mapSums.indices {
            mapSums[i] += next.mapSums[i]
            mapCounts[i] += next.mapCounts[i]
        }
    }

    /// The bin of a value: 0…1 in 256 steps, rounded (8-bit input lands exactly on its bin).
    static func bin(_ v: Float) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }

    private func differs(_ p: Pixel, _ q: Pixel, by threshold: Float) -> Bool {
        abs(p[0] - q[0]) > threshold || abs(p[1] - q[1]) > threshold || abs(p[2] - q[2]) > threshold || abs(p[3] - q[3]) > threshold
    }
}
