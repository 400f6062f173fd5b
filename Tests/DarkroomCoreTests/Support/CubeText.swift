import Foundation

/// `.cube` files written as Adobe's "Cube LUT Specification 1.0" describes them: keyword lines
/// (TITLE, LUT_3D_SIZE or LUT_1D_SIZE, optional DOMAIN_MIN/MAX), then one line of three numbers
/// per entry, red varying fastest, then green, then blue.
enum CubeText {
    /// A 3-D table of `size`³ entries of `transform` at the grid points of the domain.
    static func threeD(size: Int, title: String = "test", domain: (Float, Float) = (0, 1),
                       _ transform: (SIMD3<Float>) -> SIMD3<Float>) -> String {
        var lines = ["# written by the tests", "TITLE \"\(title)\"", "LUT_3D_SIZE \(size)"]
        if domain != (0, 1) {
            lines += ["DOMAIN_MIN \(domain.0) \(domain.0) \(domain.0)", "DOMAIN_MAX \(domain.1) \(domain.1) \(domain.1)"]
        }
        lines.append("")
        let step = (domain.1 - domain.0) / Float(size - 1)
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let v = transform(SIMD3(Float(r), Float(g), Float(b)) * step + domain.0)
            lines.append(String(format: "%.6f %.6f %.6f", v.x, v.y, v.z))
        } } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A 1-D table of `size` entries of `transform` at evenly spaced values of 0…1.
    static func oneD(size: Int, _ transform: (Float) -> SIMD3<Float>) -> String {
        var lines = ["TITLE \"one-d\"", "LUT_1D_SIZE \(size)"]
        for i in 0..<size {
            let v = transform(Float(i) / Float(size - 1))
            lines.append(String(format: "%.6f %.6f %.6f", v.x, v.y, v.z))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
