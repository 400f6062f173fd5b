@testable import DarkroomCore
import Foundation

/// The file formats images travel in to and from the reference tools; `Netpbm.read` reads all
/// three back.
enum ImageFileFormat: String, Sendable {
    /// 8-bit RGB; alpha is dropped after compositing over black.
    case ppm
    /// 8-bit RGBA.
    case pam
    /// 32-bit float RGB, so 8-bit rounding stays out of comparisons; alpha as for `ppm`.
    case pfm

    var fileExtension: String { rawValue }

    func encode(_ image: Image) -> Data {
        switch self {
        case .ppm: Netpbm.ppm(image)
        case .pam: Netpbm.pam(image)
        case .pfm: Netpbm.pfm(image)
        }
    }
}
