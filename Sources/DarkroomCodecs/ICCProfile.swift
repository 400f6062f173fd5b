import CDarkroomCodecs

/// An ICC profile embedded in an input, as Little CMS reads it.
public struct ICCProfile: Sendable, Equatable, Codable {
    /// The profile as stored (JPEG APP2 chunks joined, PNG iCCP inflated).
    public var bytes: [UInt8]
    /// Its description tag ("Adobe RGB (1998)", "sRGB IEC61966-2.1", …); nil when it has none or
    /// is unreadable.
    public var description: String?
    /// The data it describes: "gray", "rgb", "cmyk", or nil (unreadable, or another space).
    public var colorSpace: String?
    /// sRGB in all but its bytes: converting through it moves no 8-bit sample of a test grid by
    /// more than one level, so images tagged with it are read as they are.
    public var isSRGB: Bool
    /// Why Little CMS cannot convert from it; nil when it can.
    public var problem: String?

    /// Reads `bytes` with Little CMS (nothing is converted).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var summary = dr_icc_summary()
        bytes.withUnsafeBufferPointer { dr_icc_inspect($0.baseAddress, $0.count, Int32(DR_INTENT_PERCEPTUAL), &summary) }
        // Some makers pad the description with spaces.
        let text = Self.string(summary.description).reversed().drop { $0 == " " }.reversed()
        description = text.isEmpty ? nil : String(text)
        switch dr_color_space(UInt32(summary.color_space)) {
        case DR_SPACE_GRAY: colorSpace = "gray"
        case DR_SPACE_RGB: colorSpace = "rgb"
        case DR_SPACE_CMYK: colorSpace = "cmyk"
        default: colorSpace = nil
        }
        isSRGB = summary.is_srgb != 0
        problem = summary.usable != 0 ? nil : Self.string(summary.problem)
    }

    /// What reports call it: its description, or a stand-in when it has none.
    public var name: String { description ?? "unnamed \(colorSpace.map { $0.uppercased() + " " } ?? "")profile" }

    /// Why this profile cannot be used for an image whose samples are `imageSpace` ("gray",
    /// "rgb", "cmyk", "ycck", "palette"); nil when it can.
    public func problem(forImageSpace imageSpace: String) -> String? {
        if let problem { return problem }
        let samples = imageSpace == "palette" ? "rgb" : imageSpace == "ycck" ? "cmyk" : imageSpace
        guard let colorSpace, colorSpace == samples else {
            let named = ["gray": "grey", "rgb": "RGB", "cmyk": "CMYK"]
            return "a \(colorSpace.flatMap { named[$0] } ?? "non-grey/RGB/CMYK") profile on \(named[samples] ?? samples) data"
        }
        return nil
    }

    /// The compact sRGB profile outputs are tagged with (Little CMS's own, ICC v4, under 600
    /// bytes: a viewer that cannot read v4 assumes sRGB anyway, which is what it says).
    public static let sRGB: [UInt8] = {
        var length = 0
        guard let bytes = dr_icc_srgb(&length) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }()

    /// Its grey counterpart, for outputs written with one channel (an RGB profile cannot tag
    /// them): grey with the sRGB tone curve.
    public static let sRGBGrey: [UInt8] = {
        var length = 0
        guard let bytes = dr_icc_srgb_grey(&length) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }()

    /// The profile assumed for CMYK images that carry none (or one that cannot be used):
    /// FOGRA39, ISO coated offset, made from Fogra's characterization data by ArgyllCMS
    /// (scripts/make-default-cmyk-profile.sh), as libvips and Photoshop assume a press profile.
    public static let assumedCMYK: ICCProfile = {
        var length = 0
        let bytes = dr_default_cmyk_profile(&length)
        return ICCProfile(Array(UnsafeBufferPointer(start: bytes, count: length)))
    }()

    private static func string<T>(_ tuple: T) -> String {
        var copy = tuple
        return withUnsafeBytes(of: &copy) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
