/// An integer pixel rectangle: the unit of work of the tile executor and of region requests.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(size: Size) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var size: Size { Size(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle grown by `halo` pixels on every side (what an area filter reads).
    func expanded(by halo: Int) -> Rect {
        Rect(x: x - halo, y: y - halo, width: width + 2 * halo, height: height + 2 * halo)
    }

    /// The overlap of two rectangles; empty when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}
