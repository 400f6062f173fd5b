/// Fused point operations, applied in place to the rows a pipeline node has just produced
/// (point filters never make a pass of their own).
///
/// Each row is unpremultiplied once, every operation runs over the whole row (one call per
/// operation and row, so an open protocol costs no per-pixel dispatch), and the row is
/// premultiplied again. Values are not clamped between operations: quantisation happens once,
/// at encode, so a long chain of adjustments does not band.
public struct PointProgram: Sendable {
    let operations: [any PointOperation]

    /// The operations in order, neighbours merged (see ``fuse(_:)``).
    init(_ operations: [any PointOperation]) {
        self.operations = Self.fuse(operations)
    }

    var isEmpty: Bool { operations.isEmpty }

    /// Whether an opaque pixel stays opaque: every operation says so.
    package var preservesOpacity: Bool { operations.allSatisfy(\.preservesOpacity) }

    /// Whether a grey pixel (R = G = B) stays grey: every operation says so.
    package var preservesGrey: Bool { operations.allSatisfy(\.preservesGrey) }

    /// Whether every operation acts on each colour channel alone and keeps alpha.
    var isChannelwise: Bool { operations.allSatisfy { $0.isChannelwise && $0.preservesOpacity } }

    /// Applies the operations to `count` premultiplied pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count { pixels[i] = pixels[i].unpremultiplied }
        for op in operations { op.apply(pixels, count: count) }
        for i in 0..<count { pixels[i] = pixels[i].premultiplied }
    }

    /// Multiplies neighbouring matrices into one, composes neighbouring curves into one, and
    /// drops identities. Other operations stay as they are, in order.
    static func fuse(_ operations: [any PointOperation]) -> [any PointOperation] {
        var out = [any PointOperation]()
        for op in operations where !op.isIdentity {
            if let b = op.matrix, let a = out.last?.matrix {
                let product = a.then(b)
                out.removeLast()
                if !product.isIdentity { out.append(product) }
            } else if let b = op.curve, let a = out.last?.curve {
                out[out.count - 1] = a.then(b)
            } else {
                out.append(op)
            }
        }
        return out
    }
}
