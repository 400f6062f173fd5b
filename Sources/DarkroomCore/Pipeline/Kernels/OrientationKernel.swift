/// Turns the decoded image upright (EXIF orientation): every output pixel is one stored pixel,
/// moved, never resampled. A left–right mirror streams band by band; every other orientation
/// reads its input at scattered rows, so the pipeline keeps the (cropped, shrunk) stored image
/// whole and compact, as for a rotation (``RandomAccessKernel``), and this kernel copies out of it.
struct OrientationKernel: RandomAccessKernel {
    let orientation: Orientation
    /// The stored image this node reads (after shrink- and crop-on-load).
    let inputSize: Size

    var outputSize: Size { orientation.uprightSize(inputSize) }
    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }

    /// Everything but the identity and a left–right mirror reads rows out of order at any band
    /// height (a quarter turn reads whole columns), so it always reads from the compact copy.
    var alwaysKeepsInputWhole: Bool { orientation != .up && orientation != .flipHorizontal }

    func inputRegions(for output: Rect) -> [Rect] {
        [orientation.storedRect(output.intersection(Rect(size: outputSize)), stored: inputSize)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, o = orientation, size = inputSize
        for v in r.y..<r.maxY {
            let out = target.pointer(r.x, v)
            for u in r.x..<r.maxX {
                let (x, y) = o.storedPixel(u, v, stored: size)
                out[u - r.x] = view[x, y]
            }
        }
    }

    func render(from input: CompactImage, into target: RegionTarget) {
        let r = target.rect, o = orientation, size = inputSize
        guard input.layout == .rgb8 else {
            for v in r.y..<r.maxY {
                let out = target.pointer(r.x, v)
                for u in r.x..<r.maxX {
                    let (x, y) = o.storedPixel(u, v, stored: size)
                    out[u - r.x] = input.pixel(x, y)
                }
            }
            return
        }
        // The usual case, a phone's JPEG: bytes straight from the compact copy, one table
        // look-up per sample instead of a multiply.
        let bytes = UnsafePointer(input.storage.assumingMemoryBound(to: UInt8.self))
        let rowBytes = 3 * size.width
        Self.unit.withUnsafeBufferPointer { unit in
            for v in r.y..<r.maxY {
                let out = target.pointer(r.x, v)
                for u in r.x..<r.maxX {
                    let (x, y) = o.storedPixel(u, v, stored: size)
                    let p = bytes + (y * rowBytes + 3 * x)
                    out[u - r.x] = Pixel(unit[Int(p[0])], unit[Int(p[1])], unit[Int(p[2])], 1)
                }
            }
        }
    }

    /// 0…255 → 0…1 exactly as the decoder's own conversion gives it.
    private static let unit: [Float] = (0...255).map { Float($0) / 255 }
}
