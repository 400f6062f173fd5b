/// Where a resize takes its pixels from and where it puts them, for one input size.
///
/// The resampled picture covers `placement` of an output of `outputSize` (the whole output
/// except with `fit: contain`, which pads around it). Output pixel `x` of the picture samples
/// source coordinate `(x + 0.5)·scaleX + offsetX − 0.5`; `offsetX` is non-zero only when `cover`
/// crops the centre.
struct ResizePlan: Hashable, Sendable {
    var outputSize: Size
    var placement: Rect
    var scaleX: Double
    var scaleY: Double
    var offsetX: Double = 0
    var offsetY: Double = 0

    /// The same plan for a source whose sides were scaled by `fx`, `fy` (a pre-shrunk source):
    /// a pixel centre u in the original lies at (u + 0.5)·f − 0.5 in the scaled source.
    func mapped(toSourceScaledBy fx: Double, _ fy: Double) -> ResizePlan {
        var p = self
        p.scaleX *= fx
        p.scaleY *= fy
        p.offsetX *= fx
        p.offsetY *= fy
        return p
    }

    /// True when the plan reproduces the input pixel for pixel.
    func isIdentity(for input: Size) -> Bool {
        outputSize == input && placement == Rect(size: input) && scaleX == 1 && scaleY == 1
            && offsetX == 0 && offsetY == 0
    }
}

/// How `resize` fits an image into a width × height box.
enum ResizeFit: String, Sendable, CaseIterable {
    /// Exactly the box, ignoring the aspect ratio.
    case stretch
    /// As large as fits inside the box, aspect ratio kept; the output may be smaller than the box.
    case inside
    /// Fills the box, aspect ratio kept, the overflow cropped equally on both sides.
    case cover
    /// Like inside, then padded to the box with the background colour, the picture centred.
    case contain
}

/// The sizes the user asked for: a box (one or both sides) or a scale factor.
enum ResizeTarget: Hashable, Sendable {
    case box(width: Int?, height: Int?)
    case scale(Double)

    /// The plan for an input of `input`. `noUpscale` never lets the picture grow. `anchor` places
    /// what `cover` keeps in what it crops away (0 left or top, ½ centred, 1 right or bottom).
    func plan(for input: Size, fit: ResizeFit, noUpscale: Bool, anchor: (x: Double, y: Double) = (0.5, 0.5)) -> ResizePlan {
        let w = Double(input.width), h = Double(input.height)
        func uniform(_ s: Double) -> (Int, Int, Double) {
            let s = noUpscale ? min(s, 1) : s
            return (max(1, Int(saturating: (w * s).rounded())), max(1, Int(saturating: (h * s).rounded())), s)
        }
        func fitted(_ pw: Int, _ ph: Int, box: Size? = nil) -> ResizePlan {
            let out = box ?? Size(width: pw, height: ph)
            let place = Rect(x: (out.width - pw) / 2, y: (out.height - ph) / 2, width: pw, height: ph)
            return ResizePlan(outputSize: out, placement: place, scaleX: w / Double(pw), scaleY: h / Double(ph))
        }
        switch self {
        case .scale(let s):
            let (pw, ph, _) = uniform(s)
            return fitted(pw, ph)
        case .box(let bw?, nil):
            let (pw, ph, _) = uniform(Double(bw) / w)
            return fitted(pw, ph)
        case .box(nil, let bh?):
            let (pw, ph, _) = uniform(Double(bh) / h)
            return fitted(pw, ph)
        case .box(let bw?, let bh?):
            switch fit {
            case .stretch:
                return fitted(noUpscale ? min(bw, input.width) : bw, noUpscale ? min(bh, input.height) : bh)
            case .inside, .contain:
                var (pw, ph, _) = uniform(min(Double(bw) / w, Double(bh) / h))
                (pw, ph) = (min(pw, bw), min(ph, bh))
                return fitted(pw, ph, box: fit == .contain ? Size(width: bw, height: bh) : nil)
            case .cover:
                let (pw, ph, s) = uniform(max(Double(bw) / w, Double(bh) / h))
                let ow = min(bw, pw), oh = min(bh, ph)
                return ResizePlan(outputSize: Size(width: ow, height: oh), placement: Rect(x: 0, y: 0, width: ow, height: oh),
                                  scaleX: 1 / s, scaleY: 1 / s,
                                  offsetX: (w - Double(ow) / s) * anchor.x, offsetY: (h - Double(oh) / s) * anchor.y)
            }
        case .box(nil, nil):
            return fitted(input.width, input.height)
        }
    }
}
