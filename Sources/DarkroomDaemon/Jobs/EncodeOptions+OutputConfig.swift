import DarkroomCodecs
import DarkroomConfig

/// How an output's file is encoded, from its config (which speaks the codecs' vocabulary).
extension EncodeOptions {
    init(_ output: OutputConfig) {
        self.init(format: output.format, encoding: output.encoding)
    }
}
