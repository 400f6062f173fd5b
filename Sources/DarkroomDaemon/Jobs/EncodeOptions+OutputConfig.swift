import DarkroomCodecs
import DarkroomConfig

/// How an output's file is encoded, from its config.
extension EncodeOptions {
    init(_ output: OutputConfig) {
        let chroma: Chroma
        switch output.encoding.chroma {
        case .auto: chroma = .auto
        case .subsampled420: chroma = .subsampled420
        case .full444: chroma = .full444
        }
        self.init(format: ImageFormat(output.format), quality: output.quality, progressive: output.progressive,
                  chroma: chroma, bitDepth: output.encoding.bitDepth, compression: output.encoding.compression)
    }
}
