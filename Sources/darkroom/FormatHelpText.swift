/// The formats darkroom reads and writes, with each output option: printed by `darkroom filters`
/// (after the filters, or alone with `--formats`) and summarised by `darkroom check`.
enum FormatHelpText {
    static let rows: [(name: String, direction: String, options: String)] = [
        ("jpeg", "in, out", "quality 1–100 (90), progressive (false), chroma auto|420|444 (auto); CMYK in through its profile"),
        ("png", "in, out", "compression 0–9 (6), bit_depth 8|16 (as the input)"),
        ("webp", "in, out", "quality 1–100 (90), lossless (false), effort 0–6 (4), frames first|all (all); alpha kept; "
            + "an animation goes frame by frame into a GIF or WebP output, its first frame into the others"),
        ("gif", "in, out", "colors 2–256 (256), dither 0–1 (1), frames first|all (all); a palette per frame (libimagequant), "
            + "transparency kept; frames composed on the canvas, delays and loop count kept"),
        ("avif", "in, out", "quality 1–100 (90), speed 0–9 (5), bit_depth 8|10 (8; 10 through libavif); alpha kept"),
        ("heif", "in", "HEIC from phones: irot/imir applied by libheif, 10/12-bit kept as 16-bit"),
        ("tiff", "in, out", "compression none|lzw|deflate|jpeg (none), bit_depth 8|16 (as the input), tiled (false); "
            + "strips or tiles, grey/RGB/RGBA/CMYK in, the first page"),
    ]

    static func render() -> String {
        var lines = ["Formats (inputs are read by their content, not their name; an output's format is `format:` or its path's extension):"]
        for row in rows {
            lines.append("  " + row.name.padding(toLength: 6, withPad: " ", startingAt: 0)
                         + row.direction.padding(toLength: 9, withPad: " ", startingAt: 0) + row.options)
        }
        lines.append("  Default include patterns: *.jpg *.jpeg *.png *.webp *.gif *.avif *.heic *.heif *.tif *.tiff")
        return lines.joined(separator: "\n")
    }
}
