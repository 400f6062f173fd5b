/// A compass anchor inside a larger area, as libvips' and ImageMagick's `gravity`.
package enum Gravity: String, Sendable, CaseIterable {
    case center, north, south, east, west, north_east, north_west, south_east, south_west

    /// The origin of a `size` rectangle anchored this way inside `area`; centring rounds down.
    package func origin(of size: Size, in area: Size) -> (x: Int, y: Int) {
        let free = (x: area.width - size.width, y: area.height - size.height)
        let x: Int, y: Int
        switch self {
        case .west, .north_west, .south_west: x = 0
        case .east, .north_east, .south_east: x = free.x
        case .center, .north, .south: x = free.x / 2
        }
        switch self {
        case .north, .north_east, .north_west: y = 0
        case .south, .south_east, .south_west: y = free.y
        case .center, .east, .west: y = free.y / 2
        }
        return (x, y)
    }

    /// Where this anchor puts a window in the free space around it, as a fraction (0 left or
    /// top, ½ centred, 1 right or bottom): what `resize fit: cover` crops by.
    var anchor: (x: Double, y: Double) {
        let o = origin(of: Size(width: 0, height: 0), in: Size(width: 2, height: 2))
        return (Double(o.x) / 2, Double(o.y) / 2)
    }
}
