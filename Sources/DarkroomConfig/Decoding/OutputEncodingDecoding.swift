extension ConfigDecoder {
    static let outputEncodingKeys = ["chroma", "bit_depth", "compression", "metadata", "gps"]

    /// The encoding keys of one output; each is refused where its format has no use for it.
    func decodeEncoding(_ f: Fields, format: OutputFormat?) -> OutputEncoding {
        var encoding = OutputEncoding()
        let pngOnly = "applies to png only; remove it or write format: png"
        encoding.chroma = optional(f, "chroma", default: .auto) { choice($0, $1, OutputEncoding.Chroma.self) }
        if format == .png, let node = f["chroma"] {
            error(node.mark, f.path("chroma"), "chroma applies to jpeg only; remove it or write format: jpeg")
        }
        encoding.bitDepth = optional(f, "bit_depth", default: nil) { node, path in
            word(node, path, among: ["8", "16"]).flatMap { Int($0) }
        }
        if format == .jpeg, let node = f["bit_depth"] {
            error(node.mark, f.path("bit_depth"), "bit_depth \(pngOnly) (JPEG is always 8-bit)")
        }
        encoding.compression = optional(f, "compression", default: 6) { integer($0, $1, in: 0...9) }
        if format == .jpeg, let node = f["compression"] {
            error(node.mark, f.path("compression"), "compression \(pngOnly) (JPEG's size is set by quality)")
        }
        encoding.metadata = optional(f, "metadata", default: .keep) { choice($0, $1, OutputEncoding.Metadata.self) }
        encoding.gps = optional(f, "gps", default: true) { boolean($0, $1) }
        if encoding.metadata != .keep, let node = f["gps"] {
            error(node.mark, f.path("gps"), "gps applies to metadata: keep only (metadata: \(encoding.metadata.rawValue) "
                  + "carries no GPS position); remove it")
        }
        return encoding
    }
}
