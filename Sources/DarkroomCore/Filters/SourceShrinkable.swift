/// A filter that can start from a source already reduced by a loader — JPEG decoders scale
/// by 1/2, 1/4 or 1/8 almost for free (libvips' "shrink-on-load") — and still produce the same
/// output size. Only a chain's first stage is asked.
protocol SourceShrinkable: RegionFilter {
    /// By how much this filter reduces a source of `source` (its smaller scale; 1 or less when
    /// it does not shrink): a loader picks its shrink from it.
    func sourceReduction(for source: Size) -> Double

    /// The size a loader that draws its source at any size (a PDF page, an SVG) best draws a
    /// source of `source` at for this filter: the picture it makes, aspect ratio kept.
    func sourceRenderSize(for source: Size) -> Size

    /// This filter for a source decoded at `shrunk` instead of `original`: the same output
    /// size, sampled from the smaller source.
    func forShrunkSource(original: Size, shrunk: Size) -> Self
}

extension SourceShrinkable {
    /// The largest factor (1, 2, 4 or 8) by which a source of `source` may be reduced before
    /// this filter, by ``shrinkOnLoadFactor(forReduction:)``. 1 when it does not shrink enough to gain.
    func sourceShrinkFactor(for source: Size) -> Int { shrinkOnLoadFactor(forReduction: sourceReduction(for: source)) }
}

/// libvips' rule: block-reduce on load to a bit above the target and leave at least a factor
/// of two to the real resampler, which smooths away the block reduction's aliasing.
func shrinkOnLoadFactor(forReduction reduction: Double) -> Int {
    switch reduction {
    case 16...: 8
    case 8...: 4
    case 4...: 2
    default: 1
    }
}
