/// The filters darkroom knows, by name and category (PocketCoreImage's registry of
/// self-describing filters).
///
/// A registry is a value: a program (a test, a module that draws) makes its own by adding filter
/// types to ``standard``, reads its config with it, and the chains carry it from there on.
public struct FilterRegistry: Sendable, Hashable {
    public let filters: [any Filter.Type]

    public init(_ filters: [any Filter.Type]) {
        self.filters = filters
    }

    /// This registry and `more` after it.
    public func adding(_ more: [any Filter.Type]) -> FilterRegistry { FilterRegistry(filters + more) }

    public static func == (l: Self, r: Self) -> Bool {
        l.filters.map(ObjectIdentifier.init) == r.filters.map(ObjectIdentifier.init)
    }

    public func hash(into h: inout Hasher) {
        for f in filters { h.combine(ObjectIdentifier(f)) }
    }

    /// The core's filters (the drawing module adds its own: `FilterRegistry.shipped`).
    public static let standard = FilterRegistry([
        ColorControlsFilter.self, SepiaFilter.self, HueFilter.self, GammaFilter.self, InvertFilter.self, PosterizeFilter.self,
        ExposureFilter.self, MonochromeFilter.self, ColorMatrixFilter.self, GrayscaleFilter.self, PhotoEffectFilter.self,
        ThresholdFilter.self, LevelsFilter.self, CurvesFilter.self, VibranceFilter.self, TemperatureTintFilter.self,
        WhitePointFilter.self, ColorCubeFilter.self,
        ResizeFilter.self,
        CropFilter.self,
        TransformFilter.self,
        PadFilter.self, FlipFilter.self, RotateFilter.self, TileFilter.self, NineSliceFilter.self,
        GaussianBlurFilter.self,
        ConvolveFilter.self,
        UnsharpMaskFilter.self,
        DropShadowFilter.self,
        // Area, stylise and analysis filters.
        BoxBlurFilter.self, SharpenLuminanceFilter.self, MedianFilter.self, NoiseReductionFilter.self,
        EmbossFilter.self, EdgesFilter.self, VignetteFilter.self, VignetteEffectFilter.self, PixellateFilter.self,
        TrimFilter.self, NormaliseFilter.self, AutoLevelsFilter.self, EqualizeFilter.self,
        StraightenFilter.self,
    ])

    public var descriptors: [FilterDescriptor] { filters.map { $0.descriptor } }

    /// All categories, sorted.
    public var categories: [String] { Set(descriptors.flatMap(\.categories)).sorted() }

    public func descriptors(inCategory category: String) -> [FilterDescriptor] {
        descriptors.filter { $0.categories.contains(category) }
    }

    public func type(named name: String) -> (any Filter.Type)? {
        filters.first { $0.descriptor.name == name }
    }

    /// Looks a filter up, or explains that it is unknown and suggests the nearest name.
    public func descriptor(named name: String) throws(ParameterError) -> FilterDescriptor {
        if let t = type(named: name) { return t.descriptor }
        throw ParameterError("unknown filter \"\(name)\"" + suggestionText(name, among: descriptors.map(\.name)))
    }

    /// Builds a filter from resolved parameters.
    public func make(_ name: String, parameters: ResolvedParameters) throws(ParameterError) -> any Filter {
        guard let t = type(named: name) else { throw ParameterError("unknown filter \"\(name)\"") }
        return try t.init(parameters: parameters)
    }
}

/// ` (did you mean "resize"?)` when some candidate is close enough, else "".
package func suggestionText(_ word: String, among candidates: [String]) -> String {
    let limit = max(2, word.count / 3)
    // The distance is at least the difference in length, so far longer or shorter candidates are
    // skipped unscored: a pasted megabyte must not cost a megabyte of work per known name.
    let scored = candidates.filter { abs($0.count - word.count) <= limit }
        .map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else {
        return candidates.isEmpty ? "" : " (known: " + candidates.joined(separator: ", ") + ")"
    }
    return " (did you mean \"\(best.0)\"?)"
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
