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
        metadataPolicy = MetadataPolicy(output.encoding.metadata.policyContent, gps: output.encoding.gps)
        lossless = output.encoding.lossless
        effort = output.encoding.effort
        speed = output.encoding.speed
        tiled = output.encoding.tiled
        tiffCompression = TIFFCompression(rawValue: output.encoding.tiffCompression.rawValue) ?? .none
    }
}

extension OutputEncoding.Metadata {
    var policyContent: MetadataPolicy.Content {
        switch self {
        case .keep: .keep
        case .strip: .strip
        case .copyright: .copyright
        }
    }
}
