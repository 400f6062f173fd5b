import DarkroomCodecs
import DarkroomConfig

/// The codec format an output is written in.
extension ImageFormat {
    init(_ format: OutputFormat) {
        switch format {
        case .png: self = .png
        case .jpeg: self = .jpeg
        case .webp: self = .webp
        case .avif: self = .avif
        case .tiff: self = .tiff
        }
    }
}
