import DarkroomCodecs
import DarkroomConfig

/// The codecs' colour handling for an output's `color` and `intent`.
extension ColorOptions {
    init(_ config: OutputColor) {
        self.init(target: config.target == .keep ? .keep : .srgb,
                  intent: config.intent == .relative ? .relative : .perceptual)
    }
}
