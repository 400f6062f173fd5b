import DarkroomCodecs

/// A file is read by its content; when its name says another format, the report says so.
enum FormatMismatch {
    /// "read as WebP: the content is WebP, the name ends in .jpg"; nil when they agree, or the
    /// name's extension names no format darkroom reads, or the content is not an image.
    static func warning(content: ImageFormat?, name: String) -> String? {
        guard let content, let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        let ext = String(name[name.index(after: dot)...])
        guard let named = ImageFormat.fromExtension(ext), named != content,
              !(named == .heif && content == .avif) else { return nil }
        return "read as \(content.displayName): the content is \(content.displayName), the name ends in .\(ext)"
    }
}
