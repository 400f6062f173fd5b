import DarkroomCore

extension ConfigLoader {
    /// The config `darkroom run` uses without `--config`: watches `<base>/inbox`, writes
    /// `<base>/outbox/{stem}.jpg` (fitted inside 1200 px wide, never enlarged; JPEG quality 85), with
    /// done, failed and reports beside them. Its `sourceText` is the YAML below, so reports
    /// hash it like any other config.
    public static func defaultConfig(baseDirectory: String) -> DaemonConfig {
        do {
            return try parse(text: defaultText, fileName: "<built-in config>", baseDirectory: baseDirectory)
        } catch {
            // Only reachable if the standard registry lost `resize`; a test guards against it.
            preconditionFailure("the built-in config no longer validates:\n\(error)")
        }
    }

    /// The built-in config as YAML, relative to the base folder.
    public static let defaultText = """
        # darkroom's built-in config (darkroom run without --config)
        watches:
          - path: ./inbox
            outputs:
              - path: ./outbox/{stem}.jpg
                quality: 85
                chain:
                  - resize: { width: 1200, fit: inside, no_upscale: true }

        """
}
