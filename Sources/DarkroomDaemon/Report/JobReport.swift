import DarkroomCodecs
import Foundation

/// What became of one input: the JSON file written next to every processed image.
///
/// The JSON keys are snake_case and stable (people parse these with `jq`); a key whose value is
/// unknown is written as `null`, never left out. Dates are ISO-8601 in UTC with milliseconds,
/// durations are seconds. See ``JobReport/schemaVersion`` for the version of this layout.
public struct JobReport: Codable, Sendable, Equatable {
    /// Raised when a key changes meaning or disappears; new keys do not raise it.
    public static let currentSchemaVersion = 2

    public enum Status: String, Codable, Sendable {
        /// Every output was written.
        case ok
        /// The input could not be read or decoded, a chain could not be built, or an output
        /// could not be written; `error` says which.
        case failed
        /// There was nothing to do (the watch has no outputs).
        case skipped
    }

    public var schemaVersion: Int
    /// The watch the input arrived in (`process` uses the name it was given).
    public var watch: String
    public var input: Input
    /// Outputs written, in the order of the config.
    public var outputs: [Output]
    public var timings: Timings
    public var status: Status
    /// Set when `status` is `failed`.
    public var error: ReportError?
    public var darkroomVersion: String
    /// SHA-256 of the config text the daemon ran with; nil outside the daemon.
    public var configSHA256: String?
    /// The cluster node that processed the input (`cluster.node`); nil outside cluster mode.
    public var node: String?

    public init(watch: String, input: Input, outputs: [Output] = [], timings: Timings,
                status: Status, error: ReportError? = nil, configSHA256: String? = nil) {
        self.schemaVersion = Self.currentSchemaVersion
        self.watch = watch
        self.input = input
        self.outputs = outputs
        self.timings = timings
        self.status = status
        self.error = error
        self.darkroomVersion = DarkroomVersion.string
        self.configSHA256 = configSHA256
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", watch, input, outputs, timings, status, error
        case darkroomVersion = "darkroom_version", configSHA256 = "config_sha256", node
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(watch, forKey: .watch)
        try c.encode(input, forKey: .input)
        try c.encode(outputs, forKey: .outputs)
        try c.encode(timings, forKey: .timings)
        try c.encode(status, forKey: .status)
        try c.encode(error, forKey: .error)
        try c.encode(darkroomVersion, forKey: .darkroomVersion)
        try c.encode(configSHA256, forKey: .configSHA256)
        try c.encode(node, forKey: .node)
    }

    /// The input file as it was read.
    public struct Input: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int
        /// Lowercase hex; nil when the file could not be read.
        public var sha256: String?
        /// The format's name as `darkroom formats` lists it (`jpeg`, `png`, … `svg`) when recognised:
        /// by the content, never by the name (a name that says otherwise is named in `warning`).
        public var format: String?
        public var width: Int?
        public var height: Int?
        /// As the codec names it (`srgb`, `gray`, `cmyk`, …).
        public var colorSpace: String?
        /// Bits per sample as stored (PNG 1, 2, 4, 8 or 16; JPEG 8).
        public var bitDepth: Int?
        /// EXIF orientation 1…8 (1 when absent).
        public var orientation: Int?
        /// The factor the JPEG decoder reduced the image by because every chain starts by
        /// shrinking it (1: decoded at full size); nil when it was not decoded.
        public var shrinkOnLoad: Int?
        /// A problem the decoder forgave (stray bytes between JPEG segments, say, or an ICC
        /// profile ignored because it is corrupt), or nil.
        public var warning: String?
        /// The description of the embedded ICC profile; nil when there is none (or it is
        /// unreadable: `warning` then says so).
        public var icc: String?
        /// Pages of a TIFF, frames of an animated GIF or WebP, images of a HEIF. Only the first
        /// (HEIF: the primary) is processed, except that an animation goes whole into an output
        /// that animates (its `frames` says how many). Nil when the header could not be read.
        public var pages: Int?
        /// The picture the daemon wrote beside the report, if any.
        public var thumbnail: ReportThumbnail?

        public init(path: String, bytes: Int = 0, sha256: String? = nil, format: String? = nil,
                    width: Int? = nil, height: Int? = nil, colorSpace: String? = nil, orientation: Int? = nil) {
            (self.path, self.bytes, self.sha256, self.format) = (path, bytes, sha256, format)
            (self.width, self.height, self.colorSpace, self.orientation) = (width, height, colorSpace, orientation)
        }

        enum CodingKeys: String, CodingKey {
            case path, bytes, sha256, format, width, height, colorSpace = "color_space", bitDepth = "bit_depth", orientation
            case shrinkOnLoad = "shrink_on_load", warning, icc, pages, thumbnail
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(sha256, forKey: .sha256)
            try c.encode(format, forKey: .format)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(colorSpace, forKey: .colorSpace)
            try c.encode(bitDepth, forKey: .bitDepth)
            try c.encode(orientation, forKey: .orientation)
            try c.encode(shrinkOnLoad, forKey: .shrinkOnLoad)
            try c.encode(warning, forKey: .warning)
            try c.encode(icc, forKey: .icc)
            try c.encode(pages, forKey: .pages)
            try c.encode(thumbnail, forKey: .thumbnail)
        }
    }

    /// One written image.
    public struct Output: Codable, Sendable, Equatable {
        public var path: String
        public var format: String
        public var width: Int
        public var height: Int
        public var bytes: Int
        /// Every filter of the chain as it ran, identity filters included.
        public var chain: [ChainStep]
        /// The seed `random` parameters were drawn with; rerun with it to get the same output.
        public var seed: UInt64
        /// The pipeline's nodes in order (the decoder first), each with the CPU time threads
        /// spent in it: nodes run overlapped, so these add up to more than the wall time.
        public var nodes: [Node]
        /// The most pixel memory the render held at once (bands, compact copies), in bytes.
        public var peakPixelBytes: Int
        /// What the pipeline's estimate said it would hold at most, before it ran (the memory
        /// budget admits jobs by it); never below `peak_pixel_bytes`. Nil in older reports.
        public var estimatedPixelBytes: Int?
        /// 1, 2, 4 or 8: how much the JPEG decoder reduced the input for this output.
        public var shrinkOnLoad: Int
        /// Set when the configured path held another input's output (see `on_conflict`).
        public var conflict: Conflict?
        /// The EXIF orientation undone to make the pixels upright (1: written as stored, because
        /// the input was upright or `auto_orient` is off). Nil only in reports from before it.
        public var orientationApplied: Int?
        /// The ICC profile (its description) the pixels were converted from to sRGB; nil when
        /// they were not converted (untagged or sRGB input, `color: keep`, unusable profile).
        public var colorConvertedFrom: String?
        /// The frames written: the input's `pages` for an animated GIF or WebP written as an
        /// animation, 1 otherwise. Nil only in reports from before it.
        public var frames: Int?
        /// A PDF or SVG input: the page drawn, at what DPI, and the size it was rendered at
        /// (a leading resize's picture, or the page at its DPI). Nil for other inputs.
        public var page: Page?
        /// The picture the daemon wrote beside the report, if any.
        public var thumbnail: ReportThumbnail?

        /// How a PDF or SVG page was drawn for an output.
        public struct Page: Codable, Sendable, Equatable {
            public var number: Int
            public var dpi: Double
            public var renderedWidth: Int
            public var renderedHeight: Int

            public init(number: Int, dpi: Double, renderedWidth: Int, renderedHeight: Int) {
                (self.number, self.dpi, self.renderedWidth, self.renderedHeight) = (number, dpi, renderedWidth, renderedHeight)
            }

            enum CodingKeys: String, CodingKey {
                case number, dpi, renderedWidth = "rendered_width", renderedHeight = "rendered_height"
            }
        }

        public init(path: String, format: String, width: Int, height: Int, bytes: Int,
                    chain: [ChainStep], seed: UInt64, nodes: [Node], peakPixelBytes: Int, shrinkOnLoad: Int,
                    conflict: Conflict? = nil, orientationApplied: Int? = nil, colorConvertedFrom: String? = nil,
                    estimatedPixelBytes: Int? = nil) {
            (self.orientationApplied, self.colorConvertedFrom) = (orientationApplied, colorConvertedFrom)
            self.estimatedPixelBytes = estimatedPixelBytes
            (self.path, self.format, self.width, self.height, self.bytes) = (path, format, width, height, bytes)
            (self.chain, self.seed, self.nodes) = (chain, seed, nodes)
            (self.peakPixelBytes, self.shrinkOnLoad, self.conflict) = (peakPixelBytes, shrinkOnLoad, conflict)
        }

        enum CodingKeys: String, CodingKey {
            case path, format, width, height, bytes, chain, seed, nodes
            case peakPixelBytes = "peak_pixel_bytes", estimatedPixelBytes = "estimated_pixel_bytes"
            case shrinkOnLoad = "shrink_on_load", conflict
            case orientationApplied = "orientation_applied", colorConvertedFrom = "color_converted_from", frames, page
            case thumbnail
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(format, forKey: .format)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(chain, forKey: .chain)
            try c.encode(seed, forKey: .seed)
            try c.encode(nodes, forKey: .nodes)
            try c.encode(peakPixelBytes, forKey: .peakPixelBytes)
            try c.encode(estimatedPixelBytes, forKey: .estimatedPixelBytes)
            try c.encode(shrinkOnLoad, forKey: .shrinkOnLoad)
            try c.encode(conflict, forKey: .conflict)  // null, not left out: keys are stable
            try c.encode(orientationApplied, forKey: .orientationApplied)
            try c.encode(colorConvertedFrom, forKey: .colorConvertedFrom)
            try c.encode(frames, forKey: .frames)
            try c.encode(page, forKey: .page)
            try c.encode(thumbnail, forKey: .thumbnail)
        }
    }

    /// What `on_conflict` did when the output path held another input's output.
    public struct Conflict: Codable, Sendable, Equatable {
        public enum Action: String, Codable, Sendable {
            /// The other input's output was replaced (`on_conflict: overwrite`).
            case overwritten
            /// This output took a numbered name instead (`on_conflict: number`).
            case numbered
        }

        public var action: Action
        /// `watch:relative/path` of the input whose output was there, when known.
        public var otherInput: String?

        public init(action: Action, otherInput: String?) { (self.action, self.otherInput) = (action, otherInput) }

        enum CodingKeys: String, CodingKey { case action, otherInput = "other_input" }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(action, forKey: .action)
            try c.encode(otherInput, forKey: .otherInput)
        }
    }

    /// One filter with every parameter resolved (defaults filled in, random values drawn).
    public struct ChainStep: Codable, Sendable, Equatable {
        public var filter: String
        public var parameters: [String: ReportValue]
        /// Names of the parameters drawn at random, sorted.
        public var random: [String]
        /// The files the step's parameters name (a watermark), with the SHA-256 of the bytes
        /// that were used, sorted by path; empty when none. Nil only in reports from before it.
        public var assets: [Asset]?

        public init(filter: String, parameters: [String: ReportValue], random: [String], assets: [Asset] = []) {
            (self.filter, self.parameters, self.random, self.assets) = (filter, parameters, random, assets)
        }
    }

    /// A file a filter read (an image to overlay, a LUT).
    public struct Asset: Codable, Sendable, Equatable {
        public var path: String
        public var sha256: String

        public init(path: String, sha256: String) {
            (self.path, self.sha256) = (path, sha256)
        }
    }

    /// One node of an output's pipeline: the filters it computes ("decode" for the source, with
    /// a leading crop folded into it), its CPU time and its size.
    public struct Node: Codable, Sendable, Equatable {
        public var filters: [String]
        public var seconds: Double
        public var width: Int
        public var height: Int

        public init(filters: [String], seconds: Double, width: Int, height: Int) {
            (self.filters, self.seconds, self.width, self.height) = (filters, seconds, width, height)
        }
    }

    /// When the job was queued, started and finished; how long decoding, encoding (all
    /// outputs together) and the whole job (started to finished) took, in seconds.
    public struct Timings: Codable, Sendable, Equatable {
        public var queued: Date
        public var started: Date
        public var finished: Date
        public var decode: Double
        public var encode: Double
        public var total: Double

        public init(queued: Date, started: Date, finished: Date, decode: Double, encode: Double, total: Double) {
            (self.queued, self.started, self.finished) = (queued, started, finished)
            (self.decode, self.encode, self.total) = (decode, encode, total)
        }

        enum CodingKeys: String, CodingKey { case queued, started, finished, decode, encode, total }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func date(_ key: CodingKeys) throws -> Date {
                let text = try c.decode(String.self, forKey: key)
                guard let d = ISOTime.parse(text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not an ISO-8601 date: \(text)")
                }
                return d
            }
            queued = try date(.queued)
            started = try date(.started)
            finished = try date(.finished)
            decode = try c.decode(Double.self, forKey: .decode)
            encode = try c.decode(Double.self, forKey: .encode)
            total = try c.decode(Double.self, forKey: .total)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(ISOTime.format(queued), forKey: .queued)
            try c.encode(ISOTime.format(started), forKey: .started)
            try c.encode(ISOTime.format(finished), forKey: .finished)
            try c.encode(decode, forKey: .decode)
            try c.encode(encode, forKey: .encode)
            try c.encode(total, forKey: .total)
        }
    }
}

/// Why a job failed: a stable machine code (an ``ErrorCode``'s raw value) and a sentence for people.
public struct ReportError: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    /// As the report holds it; a report read back may come from another version of darkroom.
    public var code: String
    public var message: String

    public init(code: ErrorCode, message: String) { (self.code, self.message) = (code.rawValue, message) }

    public var description: String { "\(code): \(message)" }
}
