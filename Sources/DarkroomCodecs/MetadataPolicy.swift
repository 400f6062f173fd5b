/// Which of the input's metadata an output carries (the config's `metadata:` and `gps:`).
public struct MetadataPolicy: Sendable, Equatable {
    public enum Content: String, Sendable, Equatable, CaseIterable {
        /// EXIF, XMP and IPTC (EXIF brought up to date: orientation, pixel size, no thumbnail).
        case keep
        /// None.
        case strip
        /// Who made the picture and who owns it: EXIF Artist and Copyright; XMP dc:creator,
        /// dc:rights and the xmpRights properties (in a fresh packet); IPTC by-line, by-line
        /// title, credit, source and copyright notice. No GPS.
        case copyright
    }

    public var content: Content
    /// Keep the GPS position (EXIF GPS IFD, XMP `exif:GPS…` properties); `keep` only.
    public var gps: Bool

    public init(_ content: Content = .keep, gps: Bool = true) {
        self.content = content
        self.gps = gps
    }

    public static let keep = MetadataPolicy(.keep)
    public static let strip = MetadataPolicy(.strip)
}
