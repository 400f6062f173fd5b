/// Sizes for people, in decimal units as `ls -h --si` and file managers show them: `999 B`,
/// `12 KB`, `3.4 MB`, `1.25 GB`. The unit is chosen after rounding, so 999,700 bytes is
/// `1.0 MB`, never `1000 KB`. One rule for the log line and `darkroom report`.
public enum ByteText {
    public static func format(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let kilobytes = Int((Double(bytes) / 1e3).rounded())
        if kilobytes < 1000 { return "\(kilobytes) KB" }
        let tenthsOfMB = Int((Double(bytes) / 1e5).rounded())
        if tenthsOfMB < 10_000 { return "\(tenthsOfMB / 10).\(tenthsOfMB % 10) MB" }
        let hundredthsOfGB = Int((Double(bytes) / 1e7).rounded())
        let fraction = hundredthsOfGB % 100
        return "\(hundredthsOfGB / 100).\(fraction < 10 ? "0" : "")\(fraction) GB"
    }
}
