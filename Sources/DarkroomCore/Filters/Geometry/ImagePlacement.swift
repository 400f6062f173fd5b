extension Image {
    /// This image drawn at `origin` on a canvas of `size` filled with `background` (premultiplied);
    /// parts falling outside the canvas are cut off. A plain copy, no resampling: `crop` is
    /// this with a negative origin, `resize fit: contain` with a positive one.
    public func placed(on size: Size, at origin: (x: Int, y: Int), background: Pixel,
                       executor: TileExecutor) -> Image {
        let placed = Rect(x: origin.x, y: origin.y, width: width, height: height)
        let w = width
        return pixels.withUnsafeBufferPointer { source in
            executor.render(size: size) { tile, writer in
                let inside = tile.intersection(placed)
                for y in tile.y..<tile.maxY {
                    let out = writer.row(y, from: tile.x)
                    guard !inside.isEmpty, y >= inside.y, y < inside.maxY else {
                        out.update(repeating: background, count: tile.width)
                        continue
                    }
                    let left = inside.x - tile.x, right = tile.maxX - inside.maxX
                    out.update(repeating: background, count: left)
                    let src = source.baseAddress! + (y - origin.y) * w + (inside.x - origin.x)
                    (out + left).update(from: src, count: inside.width)
                    (out + left + inside.width).update(repeating: background, count: right)
                }
            }
        }
    }
}
