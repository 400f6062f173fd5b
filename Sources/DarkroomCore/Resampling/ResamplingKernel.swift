import Foundation

/// The interpolation kernels `resize` offers, named as in libvips and Pillow.
enum ResamplingKernel: String, Sendable, CaseIterable {
    /// The single closest source pixel: exact values, blocky when enlarging, aliased when shrinking.
    case nearest
    /// The triangle (tent) filter: linear interpolation.
    case bilinear
    /// Keys' cubic convolution with a = −0.5 (Catmull–Rom), as Pillow's and libvips' bicubic.
    case bicubic
    /// `sinc(x)·sinc(x/3)` over three lobes: sharp, with slight ringing at hard edges.
    case lanczos3

    /// Half-width of the kernel in source pixels at scale 1.
    var support: Double {
        switch self {
        case .nearest: 0.5
        case .bilinear: 1
        case .bicubic: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's weight at distance `x` (in source pixels at scale 1).
    func weight(_ x: Double) -> Double {
        let t = abs(x)
        switch self {
        case .nearest:
            return t < 0.5 ? 1 : 0
        case .bilinear:
            return t < 1 ? 1 - t : 0
        case .bicubic:
            let a = -0.5
            if t < 1 { return ((a + 2) * t - (a + 3)) * t * t + 1 }
            if t < 2 { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a }
            return 0
        case .lanczos3:
            if t < 1e-9 { return 1 }
            guard t < 3 else { return 0 }
            let px = Double.pi * t
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}
