/// Reads colours in the forms FILTERS.md lists: `#rgb`, `#rrggbb`, `#rrggbbaa`, `[r, g, b(, a)]`
/// in 0…1, or a CSS colour name.
enum ColorParser {
    static func parse(_ raw: RawValue) -> RGBA? {
        switch raw {
        case .list(let items):
            let values = items.compactMap { item -> Double? in
                if case .scalar(let s) = item { return Double(s.trimmed) }
                return nil
            }
            guard values.count == items.count, values.count == 3 || values.count == 4,
                  values.allSatisfy({ (0...1).contains($0) }) else { return nil }
            return RGBA(values[0], values[1], values[2], values.count == 4 ? values[3] : 1)
        case .scalar(let s):
            let text = s.trimmed.lowercased()
            if text.hasPrefix("#") { return hex(String(text.dropFirst())) }
            return cssNames[text]
        case .mapping:
            return nil
        }
    }

    private static func hex(_ digits: String) -> RGBA? {
        var expanded = digits
        if digits.count == 3 || digits.count == 4 { expanded = digits.map { "\($0)\($0)" }.joined() }
        guard expanded.count == 6 || expanded.count == 8, let n = UInt64(expanded, radix: 16) else { return nil }
        let bytes = expanded.count == 8 ? n : (n << 8) | 0xFF
        func channel(_ shift: UInt64) -> Double { Double((bytes >> shift) & 0xFF) / 255 }
        return RGBA(channel(24), channel(16), channel(8), channel(0))
    }

    private static func rgb(_ v: UInt32) -> RGBA {
        RGBA(Double((v >> 16) & 0xFF) / 255, Double((v >> 8) & 0xFF) / 255, Double(v & 0xFF) / 255)
    }

    /// The CSS basic and common extended colour keywords.
    static let cssNames: [String: RGBA] = {
        var names: [String: UInt32] = [
            "black": 0x000000, "white": 0xFFFFFF, "red": 0xFF0000, "lime": 0x00FF00, "green": 0x008000,
            "blue": 0x0000FF, "yellow": 0xFFFF00, "cyan": 0x00FFFF, "aqua": 0x00FFFF, "magenta": 0xFF00FF,
            "fuchsia": 0xFF00FF, "gray": 0x808080, "grey": 0x808080, "silver": 0xC0C0C0, "maroon": 0x800000,
            "olive": 0x808000, "navy": 0x000080, "purple": 0x800080, "teal": 0x008080, "orange": 0xFFA500,
            "pink": 0xFFC0CB, "brown": 0xA52A2A, "gold": 0xFFD700, "beige": 0xF5F5DC, "ivory": 0xFFFFF0,
            "khaki": 0xF0E68C, "lavender": 0xE6E6FA, "coral": 0xFF7F50, "salmon": 0xFA8072, "tomato": 0xFF6347,
            "crimson": 0xDC143C, "indigo": 0x4B0082, "violet": 0xEE82EE, "orchid": 0xDA70D6, "plum": 0xDDA0DD,
            "tan": 0xD2B48C, "chocolate": 0xD2691E, "sienna": 0xA0522D, "turquoise": 0x40E0D0,
            "skyblue": 0x87CEEB, "steelblue": 0x4682B4, "royalblue": 0x4169E1, "darkblue": 0x00008B,
            "darkgreen": 0x006400, "darkred": 0x8B0000, "darkgray": 0xA9A9A9, "darkgrey": 0xA9A9A9,
            "lightgray": 0xD3D3D3, "lightgrey": 0xD3D3D3, "dimgray": 0x696969, "dimgrey": 0x696969,
            "whitesmoke": 0xF5F5F5, "gainsboro": 0xDCDCDC, "snow": 0xFFFAFA, "linen": 0xFAF0E6,
            "wheat": 0xF5DEB3, "firebrick": 0xB22222, "forestgreen": 0x228B22, "seagreen": 0x2E8B57,
            "slategray": 0x708090, "slategrey": 0x708090, "midnightblue": 0x191970, "hotpink": 0xFF69B4,
            "deeppink": 0xFF1493, "goldenrod": 0xDAA520, "rebeccapurple": 0x663399,
        ]
        names["darkorange"] = 0xFF8C00
        var out = names.mapValues(rgb)
        out["transparent"] = .transparent
        return out
    }()
}
