extension Int {
    /// The largest magnitude a coordinate or extent computed from user parameters takes (2³¹,
    /// far past any image that fits in memory). Sums of a few such values and the product of two
    /// stay far from `Int.max`, so size arithmetic downstream never overflows.
    static let coordinateLimit = 1 << 31

    /// `value` rounded toward zero and clamped to ±``coordinateLimit``; NaN gives 0.
    ///
    /// Sizes and positions derived from user input (a scale of 1e300, an offset of 1e300 px) go
    /// through this instead of `Int(_:)`, which traps on NaN, infinity and anything past ±9.2e18.
    /// A saturated size is still far above any `max_pixels`, so the job is refused, not run.
    package init(saturating value: Double) {
        guard !value.isNaN else { self = 0; return }
        let limit = Double(Int.coordinateLimit)
        self = Int(Swift.min(Swift.max(value, -limit), limit))
    }
}
