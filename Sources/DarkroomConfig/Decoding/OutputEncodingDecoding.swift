import DarkroomCodecs

extension ConfigDecoder {
    static let outputEncodingKeys = ["chroma", "bit_depth", "compression", "metadata", "gps", "lossless", "effort", "speed", "tiled",
                                     "colors", "dither", "frames"]

    /// The formats each encoding key means something for; elsewhere it is refused.
    static let encodingKeyFormats: [String: [ImageFormat]] = [
        "quality": [.jpeg, .webp, .avif, .tiff], "chroma": [.jpeg], "bit_depth": [.png, .tiff, .avif],
        "compression": [.png, .tiff], "lossless": [.webp], "effort": [.webp], "speed": [.avif], "tiled": [.tiff],
        "colors": [.gif], "dither": [.gif],
    ]

    /// Refuses `key` when `format` has no use for it, naming the formats it applies to.
    func refuseIfInapplicable(_ f: Fields, _ key: String, format: ImageFormat?, because reason: String = "") {
        guard let format, let node = f[key], let formats = Self.encodingKeyFormats[key], !formats.contains(format) else { return }
        let names = formats.map(\.rawValue)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
        error(node.mark, f.path(key), "\(key) applies to \(list) only; remove it or write format: \(names[0])" + reason)
    }

    /// The encoding keys of one output; each is refused where its format has no use for it.
    func decodeEncoding(_ f: Fields, format: ImageFormat?) -> OutputEncoding {
        var encoding = OutputEncoding()
        encoding.chroma = optional(f, "chroma", default: .auto) { choice($0, $1, EncodeOptions.Chroma.self) }
        refuseIfInapplicable(f, "chroma", format: format)
        encoding.bitDepth = decodeBitDepth(f, format: format)
        refuseIfInapplicable(f, "bit_depth", format: format, because: format == .jpeg ? " (JPEG is always 8-bit)" : " (WebP is always 8-bit)")
        if format == .tiff {
            encoding.tiffCompression = optional(f, "compression", default: .none) { choice($0, $1, EncodeOptions.TIFFCompression.self) }
            if encoding.tiffCompression == .jpeg, encoding.bitDepth == 16, let node = f["bit_depth"] {
                error(node.mark, f.path("bit_depth"), "bit_depth 16 cannot be written with compression: jpeg (JPEG holds 8-bit samples); use lzw or deflate")
            }
        } else {
            encoding.compression = optional(f, "compression", default: 6) { integer($0, $1, in: 0...9) }
        }
        refuseIfInapplicable(f, "compression", format: format, because: " (the size of JPEG, WebP and AVIF is set by quality)")
        encoding.tiled = optional(f, "tiled", default: false) { boolean($0, $1) }
        refuseIfInapplicable(f, "tiled", format: format)
        encoding.lossless = optional(f, "lossless", default: false) { boolean($0, $1) }
        refuseIfInapplicable(f, "lossless", format: format)
        encoding.effort = optional(f, "effort", default: 4) { integer($0, $1, in: 0...6) }
        refuseIfInapplicable(f, "effort", format: format)
        encoding.speed = optional(f, "speed", default: 5) { integer($0, $1, in: 0...9) }
        refuseIfInapplicable(f, "speed", format: format)
        encoding.colors = optional(f, "colors", default: 256) { integer($0, $1, in: 2...256) }
        refuseIfInapplicable(f, "colors", format: format)
        encoding.dither = optional(f, "dither", default: 1) { number($0, $1, in: 0...1) }
        refuseIfInapplicable(f, "dither", format: format)
        encoding.frames = optional(f, "frames", default: .auto) { node, path in
            word(node, path, among: ["first", "all"]).flatMap(EncodeOptions.Frames.init(rawValue:))
        }
        if encoding.frames == .all, let format, !format.canAnimate, let node = f["frames"] {
            error(node.mark, f.path("frames"), "frames: all needs a format that animates (gif or webp); \(format.rawValue) holds one frame, so write frames: first or remove it")
        }
        encoding.metadata = optional(f, "metadata", default: .keep) { choice($0, $1, MetadataPolicy.Content.self) }
        encoding.gps = optional(f, "gps", default: true) { boolean($0, $1) }
        if encoding.metadata != .keep, let node = f["gps"] {
            error(node.mark, f.path("gps"), "gps applies to metadata: keep only (metadata: \(encoding.metadata.rawValue) "
                  + "carries no GPS position); remove it")
        }
        return encoding
    }

    /// `bit_depth`: 8 or 16 (PNG, TIFF); 8 or 10 (AVIF: 10-bit goes through libavif).
    private func decodeBitDepth(_ f: Fields, format: ImageFormat?) -> Int? {
        let depths = format == .avif ? ["8", "10"] : ["8", "16"]
        return optional(f, "bit_depth", default: nil) { node, path in word(node, path, among: depths).flatMap { Int($0) } }
    }
}
