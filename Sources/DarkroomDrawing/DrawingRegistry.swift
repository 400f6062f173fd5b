import DarkroomCore

/// The filters that draw and composite (cairo, Pango, librsvg), and the registry darkroom ships.
extension FilterRegistry {
    /// Filters that rasterise with cairo, lay text out with Pango or render SVG with librsvg.
    public static let drawingFilters: [any Filter.Type] = [
        ClipFilter.self,
        DrawFilter.self,
        FillPatternFilter.self,
        OverlayImageFilter.self,
        BlendFilter.self,
        LinearGradientFilter.self,
        RadialGradientFilter.self,
        DrawTextFilter.self,
        GroupFilter.self,
    ]

    /// Every filter darkroom ships: ``standard`` and the drawing filters. The daemon and the CLI
    /// read configs and chains with this one.
    public static let shipped = FilterRegistry.standard.adding(drawingFilters)
}
