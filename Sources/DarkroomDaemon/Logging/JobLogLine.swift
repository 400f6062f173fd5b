/// The one line a person reads per processed file:
/// `photo.jpg → thumbs/photo.jpg (720×480, 84 KB), postcards/photo.png (1200×800, 1.3 MB) in 0.42 s`
/// (an animation: `banner.gif → small/banner.gif (400×300, 100 frames, 1.1 MB) in 2.10 s`)
/// or `photo.jpg failed: truncated: JPEG data ends early`.
public enum JobLogLine {
    public static func text(for report: JobReport, inputName: String) -> String {
        switch report.status {
        case .failed:
            let error = report.error.map { "\($0.code): \($0.message)" } ?? "unknown error"
            return "\(inputName) failed: \(error)"
        case .skipped:
            return "\(inputName) skipped: no outputs configured"
        case .ok:
            let outputs = report.outputs.map { o in
                "\(shortPath(o.path)) (\(o.width)×\(o.height)\((o.frames ?? 1) > 1 ? ", \(o.frames!) frames" : ""), \(byteCount(o.bytes)))"
            }
            // A forgiven problem (metadata left out, stray bytes) is worth an operator's glance.
            let warning = report.input.warning.map { " (warning: \($0))" } ?? ""
            return "\(inputName) → \(outputs.joined(separator: ", ")) in \(seconds(report.timings.total))\(warning)"
        }
    }

    /// The last folder and the file name: enough to tell outputs apart at a glance.
    static func shortPath(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }

    /// Decimal units, as `ls -h --si` and file managers show them.
    static func byteCount(_ bytes: Int) -> String { ByteText.format(bytes) }

    static func seconds(_ s: Double) -> String { "\(twoDecimals(s)) s" }

    private static func twoDecimals(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
