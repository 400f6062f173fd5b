import Dispatch

/// Splits an output image into tiles and renders them concurrently.
///
/// The executor knows nothing of what a filter computes; a filter knows nothing of threads.
/// Each tile writes a disjoint rectangle of the output, which is why the raw pointer below is
/// safe to share between the concurrent tiles.
public struct TileExecutor: Sendable {
    /// Edge length of a square tile in pixels.
    public var tileSize: Int
    /// Upper bound on tiles rendered at once (1 renders serially, handy in tests).
    public var concurrency: Int

    public init(tileSize: Int = 128, concurrency: Int = TileExecutor.defaultConcurrency) {
        precondition(tileSize > 0 && concurrency > 0)
        self.tileSize = tileSize
        self.concurrency = concurrency
    }

    public static var defaultConcurrency: Int { max(1, ProcessInfoCores.count) }

    /// The tiles covering an image of `size`, in row-major order.
    public func tiles(covering size: Size) -> [Rect] {
        var out = [Rect]()
        var y = 0
        while y < size.height {
            var x = 0
            let h = min(tileSize, size.height - y)
            while x < size.width {
                out.append(Rect(x: x, y: y, width: min(tileSize, size.width - x), height: h))
                x += tileSize
            }
            y += tileSize
        }
        return out
    }

    /// Renders a new image of `size`; `body` fills one tile of the output per call.
    public func render(size: Size, _ body: (Rect, inout TileWriter) -> Void) -> Image {
        Image(width: size.width, height: size.height) { buffer in
            let writer = TileWriter(base: buffer.baseAddress, width: size.width)
            let tiles = self.tiles(covering: size)
            withoutActuallyEscaping(body) { body in
                let run = UncheckedBox(body)
                if concurrency == 1 || tiles.count == 1 {
                    for tile in tiles { var w = writer; run.value(tile, &w) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                        var w = writer
                        run.value(tiles[i], &w)
                    }
                }
            }
        }
    }
}

/// Write access to the output image for one tile. Tiles never overlap, so concurrent writers
/// never touch the same pixel.
public struct TileWriter: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Pixel>?
    /// Width of the whole output image (the row stride).
    public let width: Int

    init(base: UnsafeMutablePointer<Pixel>?, width: Int) {
        self.base = base
        self.width = width
    }

    @inlinable public subscript(x: Int, y: Int) -> Pixel {
        get { base![y * width + x] }
        nonmutating set { base![y * width + x] = newValue }
    }

    /// A pointer to pixel (x, y) for writing a run of `count` pixels along a row.
    @inlinable public func row(_ y: Int, from x: Int) -> UnsafeMutablePointer<Pixel> {
        base! + (y * width + x)
    }
}

/// Carries a non-Sendable closure into `concurrentPerform`. Safe here because each invocation
/// writes a disjoint tile and reads only immutable inputs.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
