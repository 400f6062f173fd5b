import DarkroomCodecs

extension ConfigDecoder {
    static let outputColorKeys = ["auto_orient", "color", "intent"]

    /// `auto_orient`, `color` and `intent` of one output (defaults for those absent).
    func decodeOutputColor(_ f: Fields) -> ColorOptions {
        let defaults = ColorOptions()
        return ColorOptions(
            autoOrient: optional(f, "auto_orient", default: defaults.autoOrient) { boolean($0, $1) },
            target: optional(f, "color", default: defaults.target) { choice($0, $1, ColorOptions.Target.self) },
            intent: optional(f, "intent", default: defaults.intent) { choice($0, $1, ColorOptions.Intent.self) })
    }
}
