import DarkroomCodecs
import DarkroomConfig

/// The formats darkroom reads and writes, with each output option (from ``OutputOption/all``):
/// printed by `darkroom formats` (and after the filters by `darkroom filters`).
enum FormatHelpText {
    /// What each format is, beyond its options.
    static let notes: [ImageFormat: String] = [
        .jpeg: "CMYK in through its profile",
        .webp: "alpha kept; an animation goes frame by frame into a GIF or WebP output, its first frame into the others",
        .gif: "a palette per frame (libimagequant), transparency kept; frames composed on the canvas, delays and loop count kept",
        .avif: "alpha kept",
        .jxl: "alpha kept, 16-bit and HDR depths in as 16-bit, orientation from the codestream, an animation's first frame; lossless_jpeg transcodes a JPEG byte-exactly",
        .heif: "HEIC from phones: irot/imir applied by libheif, 10/12-bit kept as 16-bit",
        .tiff: "strips or tiles, grey/RGB/RGBA/CMYK in, the first page",
        .raw: "camera RAW (" + ImageFormat.raw.fileExtensions.map { "." + $0 }.joined(separator: " ") + ") developed by libraw: AHD, white_balance, "
            + "camera matrix to sRGB, half-size when shrunk 2× or more; raw_preview reads the embedded JPEG",
        .pdf: "a page drawn by poppler on white at dpi, or at a leading resize's size; pages: all writes one output per page",
        .svg: "drawn by librsvg (gzip'd too) at dpi, 96 user units an inch, or at a leading resize's size; transparency kept; no external file or URL is read",
    ]

    /// "quality 1–100 (90), progressive (false), …": the options `format` takes.
    static func options(of format: ImageFormat) -> String {
        options(of: format, summary).joined(separator: ", ")
    }

    /// "quality 1–100 (90)": an option's name, its values unless it is a switch, and its default.
    static func summary(_ option: OutputOption, _ form: OutputOption.Form) -> String {
        option.name + (form.kind == .boolean ? "" : " " + form.kind.range) + " (\(form.defaultText))"
    }

    /// Each option `format` takes beyond those every output takes, as `text` words it (nil: left out).
    static func options(of format: ImageFormat, _ text: (OutputOption, OutputOption.Form) -> String?) -> [String] {
        OutputOption.all.compactMap { option -> String? in
            guard let form = option.form(for: format), form.formats != ImageFormat.writableFormats else { return nil }
            return text(option, form)
        }
    }

    static func render() -> String {
        var lines = TextWrap.lines("", "Formats (inputs are read by their content, not their name; an output's format is `format:` or its path's extension):")
        for format in ImageFormat.allCases {
            let direction = format.isWritable ? "in, out" : "in"
            let about = [format.isWritable ? options(of: format) : "", notes[format] ?? ""].filter { !$0.isEmpty }
            lines += TextWrap.lines("  " + format.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
                                    + direction.padding(toLength: 9, withPad: " ", startingAt: 0), about.joined(separator: "; "))
        }
        let common = OutputOption.all.filter { $0.formats == ImageFormat.writableFormats }.map { summary($0, $0.forms[0]) }
        lines += TextWrap.lines("  Every output: ", common.joined(separator: ", "), indent: 4)
        lines += TextWrap.lines("  Default include patterns: ", WatchConfig.defaultInclude.joined(separator: " "), indent: 4)
        return lines.joined(separator: "\n")
    }
}
