/// The file formats darkroom reads and writes.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png, jpeg

    /// The format whose signature `bytes` start with, or nil when neither matches.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// The format a file extension names ("png", "jpg", "jpeg"; any case, with or without the dot).
    public static func fromExtension(_ ext: String) -> ImageFormat? {
        var lowered = ext.lowercased()
        if lowered.hasPrefix(".") { lowered.removeFirst() }
        switch lowered {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        default: return nil
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        }
    }
}
