/// How a stored image must be turned to stand upright: the eight values of the EXIF
/// Orientation tag, each an exact flip or transpose of whole pixels (no resampling).
///
/// Coordinates: the stored image is `W × H`; the upright image is the same, or `H × W` when the
/// orientation swaps the axes (5…8). The names say what turns the stored image upright, as
/// libvips' `autorot` does it.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1
    /// Mirror left–right.
    case flipHorizontal = 2
    /// Turn 180°.
    case rotate180 = 3
    /// Mirror top–bottom.
    case flipVertical = 4
    /// Transpose (mirror about the main diagonal).
    case transpose = 5
    /// Turn 90° clockwise.
    case rotate90 = 6
    /// Transverse (mirror about the other diagonal).
    case transverse = 7
    /// Turn 90° counter-clockwise (270° clockwise).
    case rotate270 = 8

    /// The EXIF value (1…8); anything else is taken as upright, as readers of EXIF do.
    public init(exif value: Int) { self = Orientation(rawValue: value) ?? .up }

    /// Whether width and height trade places.
    var swapsAxes: Bool { rawValue >= 5 }

    /// The upright size of a stored image of `stored` (or the stored size of an upright one:
    /// the map is its own inverse on sizes).
    public func uprightSize(_ stored: Size) -> Size {
        swapsAxes ? Size(width: stored.height, height: stored.width) : stored
    }

    /// The stored pixel shown at upright pixel (`u`, `v`), for a stored image of `stored`.
    @inline(__always) package func storedPixel(_ u: Int, _ v: Int, stored: Size) -> (x: Int, y: Int) {
        let lastX = stored.width - 1, lastY = stored.height - 1
        switch self {
        case .up: return (u, v)
        case .flipHorizontal: return (lastX - u, v)
        case .rotate180: return (lastX - u, lastY - v)
        case .flipVertical: return (u, lastY - v)
        case .transpose: return (v, u)
        case .rotate90: return (v, lastY - u)
        case .transverse: return (lastX - v, lastY - u)
        case .rotate270: return (lastX - v, u)
        }
    }

    /// The stored rectangle whose pixels make up the upright rectangle `rect` (exactly: a flip
    /// or transpose maps rectangles onto rectangles).
    func storedRect(_ rect: Rect, stored: Size) -> Rect {
        guard !rect.isEmpty else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let a = storedPixel(rect.x, rect.y, stored: stored)
        let b = storedPixel(rect.maxX - 1, rect.maxY - 1, stored: stored)
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        return Rect(x: x0, y: y0, width: max(a.x, b.x) - x0 + 1, height: max(a.y, b.y) - y0 + 1)
    }
}
