import DarkroomCore

/// Where a drawn thing (an image, a text block) goes inside the image: anchored by a compass
/// `gravity` and kept `margin` pixels from the edges it is anchored to, or at a point.
enum Placement: Sendable {
    case gravity(Gravity, margin: Length)
    case at(Length, Length)

    /// The top-left corner of a `size` box inside `area`. A margin in % is of the width across
    /// and of the height down; centred axes take no margin.
    func origin(of size: Size, in area: Size) -> (x: Int, y: Int) {
        switch self {
        case .at(let x, let y):
            return (Int(saturating: x.pixels(of: area.width).rounded()), Int(saturating: y.pixels(of: area.height).rounded()))
        case .gravity(let gravity, let margin):
            var (x, y) = gravity.origin(of: size, in: area)
            let mx = Int(saturating: margin.pixels(of: area.width).rounded()), my = Int(saturating: margin.pixels(of: area.height).rounded())
            switch gravity {
            case .west, .north_west, .south_west: x += mx
            case .east, .north_east, .south_east: x -= mx
            default: break
            }
            switch gravity {
            case .north, .north_west, .north_east: y += my
            case .south, .south_west, .south_east: y -= my
            default: break
            }
            return (x, y)
        }
    }

    /// The placement parameters (`gravity`, `margin`, `at`) as a filter's descriptor declares them.
    static func parameters(what: String, gravity: Gravity = .north_west, margin: Length = Length(0)) -> [ParameterDescriptor] {
        [
            ParameterDescriptor("gravity", .choice(Gravity.allCases.map(\.rawValue)),
                                "Where \(what) is anchored: a compass point or center (\(gravity.rawValue) when nothing else places it)."),
            ParameterDescriptor("margin", .length, "Distance from the edges it is anchored to, in px or % of the image's width (across) and height (down).",
                                default: .length(margin), min: 0, slider: 0...100, unit: "px"),
            ParameterDescriptor("at", .point, "Its top-left corner, in px or % of the image's size (instead of gravity).", unit: "px"),
        ]
    }

    /// The placement the parameters give: `at`, else `gravity` (`otherwise` if not given) with `margin`.
    static func read(_ p: DescribedParameters, otherwise: Gravity = .north_west) throws(ParameterError) -> Placement {
        if let at = p.values.point("at") {
            guard p.values.choice("gravity") == nil else { throw ParameterError("give at or gravity, not both") }
            return .at(at.0, at.1)
        }
        let gravity = p.values.choice("gravity").flatMap(Gravity.init(rawValue:)) ?? otherwise
        return .gravity(gravity, margin: p.length("margin"))
    }
}

/// How a picture is fitted into a rectangle (as resize's `fit`).
enum Fit: String, Sendable, CaseIterable {
    /// Exactly the rectangle, aspect not kept.
    case stretch
    /// As large as fits inside, aspect kept, centred.
    case inside
    /// As small as covers it, aspect kept, centred and cut to the rectangle.
    case cover

    /// The drawn rectangle (x, y, width, height) of a `natural`-sized picture fitted into `box`.
    func place(_ natural: (width: Double, height: Double), in box: Rect) -> Rect {
        guard self != .stretch, natural.width > 0, natural.height > 0 else { return box }
        let sx = Double(box.width) / natural.width, sy = Double(box.height) / natural.height
        let s = self == .inside ? min(sx, sy) : max(sx, sy)
        let w = Int(saturating: (natural.width * s).rounded()), h = Int(saturating: (natural.height * s).rounded())
        return Rect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h)
    }
}
