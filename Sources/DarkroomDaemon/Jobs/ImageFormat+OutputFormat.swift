import DarkroomCodecs
import DarkroomConfig

/// The codec format an output is written in.
extension ImageFormat {
    init(_ format: OutputFormat) {
        switch format {
        case .png: self = .png
        case .jpeg: self = .jpeg
        }
    }
}
