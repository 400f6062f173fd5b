import DarkroomCodecs

extension ConfigDecoder {
    /// The output options' keys (``OutputOption/all``).
    static let outputEncodingKeys = OutputOption.all.map(\.name)

    /// The output options of one output, each read as its format's form of it; an option the
    /// format has no use for is refused, naming the formats it applies to.
    func decodeEncoding(_ f: Fields, format: ImageFormat?) -> OutputEncoding {
        var encoding = OutputEncoding()
        for option in OutputOption.all {
            guard let node = f[option.name] else { continue }
            // Without a format (already an error) the value is still checked, as the first form reads it.
            guard let form = format.map(option.form(for:)) ?? option.forms.first else {
                error(node.mark, f.path(option.name), option.refusal(for: format!))
                continue
            }
            if let value = read(node, f.path(option.name), form.kind) { encoding[option] = value }
        }
        if format == .tiff, encoding.tiffCompression == .jpeg, encoding.bitDepth == 16, let node = f["bit_depth"] {
            error(node.mark, f.path("bit_depth"), "bit_depth 16 cannot be written with compression: jpeg (JPEG holds 8-bit samples); use lzw or deflate")
        }
        if encoding.metadata != .keep, let node = f["gps"] {
            error(node.mark, f.path("gps"), "gps applies to metadata: keep only (metadata: \(encoding.metadata.rawValue) "
                  + "carries no GPS position); remove it")
        }
        return encoding
    }

    /// One value of `kind`, with the reader (and so the error message) of its kind.
    private func read(_ node: YAMLNode, _ path: String, _ kind: OutputOption.Kind) -> OutputOption.Value? {
        switch kind {
        case .integer(let range): integer(node, path, in: range).map(OutputOption.Value.integer)
        case .integerChoice(let values): word(node, path, among: values.map(String.init)).flatMap(Int.init).map(OutputOption.Value.integer)
        case .boolean: boolean(node, path).map(OutputOption.Value.boolean)
        case .choice(let words): word(node, path, among: words).map(OutputOption.Value.word)
        }
    }
}
