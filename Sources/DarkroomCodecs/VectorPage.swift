import DarkroomCore

/// A PDF or SVG page's size in points (1/72 inch); an SVG's user units are 1/96 inch, as in
/// librsvg and browsers.
public struct PageSize: Sendable, Equatable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Its size in pixels at `dpi`: each side rounded to nearest (ties to even, as libvips'
    /// pdfload), at least 1. Saturates far beyond any pixel limit.
    public func pixels(dpi: Double) -> Size {
        func side(_ points: Double) -> Int {
            let px = (points * dpi / 72).rounded(.toNearestOrEven)
            return px >= 1e9 ? 1_000_000_000 : max(1, Int(px))
        }
        return Size(width: side(width), height: side(height))
    }
}

/// Which page of a PDF or SVG input is drawn, at what resolution, and the size it is rendered
/// at (other formats ignore it).
public struct VectorPage: Sendable, Equatable {
    /// Which pages of a PDF an output holds (`pages:`).
    public enum Pages: String, Sendable, CaseIterable {
        /// The page `page:` names (the first by default).
        case first
        /// Every page, each to its own file ({page} in the output path).
        case all
    }

    /// The DPI when an output sets none.
    public static let defaultDPI = 150.0

    /// 1-based.
    public var page: Int
    public var dpi: Double
    /// The size the page is rendered at when a following resize asks for one (drawn at that
    /// size, not rasterised at `dpi` and shrunk); nil renders it at `dpi`.
    public var renderSize: Size?

    public init(page: Int = 1, dpi: Double = Self.defaultDPI, renderSize: Size? = nil) {
        self.page = page
        self.dpi = dpi
        self.renderSize = renderSize
    }

    /// The page's size at `dpi`, from the header's page sizes (the header's own size when it
    /// has none, as for a format that is not drawn).
    public func pixelSize(in header: ImageInfo) -> Size {
        guard header.pageSizes.indices.contains(page - 1) else { return Size(width: header.width, height: header.height) }
        return header.pageSizes[page - 1].pixels(dpi: dpi)
    }
}
