import DarkroomCodecs
import DarkroomConfig

/// How an output's file is encoded, from its config (which speaks the codecs' vocabulary).
extension EncodeOptions {
    init(_ output: OutputConfig) {
        self.init(format: output.format, quality: output.quality, progressive: output.progressive,
                  chroma: output.encoding.chroma, bitDepth: output.encoding.bitDepth, compression: output.encoding.compression)
        metadataPolicy = MetadataPolicy(output.encoding.metadata, gps: output.encoding.gps)
        lossless = output.encoding.lossless
        effort = output.encoding.effort
        speed = output.encoding.speed
        tiled = output.encoding.tiled
        tiffCompression = output.encoding.tiffCompression
        colors = output.encoding.colors
        dither = output.encoding.dither
        frames = output.encoding.frames
    }
}
