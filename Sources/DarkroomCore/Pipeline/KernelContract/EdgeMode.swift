/// How reads outside an input image are answered.
public enum EdgeMode: Sendable, Hashable {
    /// The nearest edge pixel (libvips' `VIPS_EXTEND_COPY`): flat images stay flat to the border.
    case clamp
    /// Transparent black (premultiplied zero): what lies outside is nothing.
    case transparent
    /// The image again, as tiles (libvips' `VIPS_EXTEND_REPEAT`): patterns.
    case `repeat`
    /// The image reflected at each edge (`VIPS_EXTEND_MIRROR`): seamless tiles.
    case mirror

    /// The index inside `0..<extent` that a read at `i` takes, or nil for a transparent one.
    @inlinable func index(_ i: Int, extent: Int) -> Int? {
        guard extent > 0 else { return nil }
        if i >= 0 && i < extent { return i }
        switch self {
        case .clamp: return i < 0 ? 0 : extent - 1
        case .transparent: return nil
        case .repeat:
            let m = i % extent
            return m < 0 ? m + extent : m
        case .mirror:
            // Period 2·extent: 0 1 … e−1 e−1 … 1 0, then again.
            let period = 2 * extent
            var m = i % period
            if m < 0 { m += period }
            return m < extent ? m : period - 1 - m
        }
    }
}
