import Foundation

/// Reading and writing reports as files.
extension JobReport {
    /// Pretty-printed JSON with sorted keys, so two reports diff cleanly.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values with finite numbers cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    /// Writes the report atomically (see ``AtomicWriter``).
    public func write(to path: String) throws(FileError) {
        try AtomicWriter.write(jsonBytes(), to: path)
    }

    /// The report at `path`, or nil when it is missing or unreadable as a report.
    public static func read(from path: String) -> JobReport? {
        guard let bytes = try? FileIO.read(path, maxBytes: 16 << 20) else { return nil }
        return try? JSONDecoder().decode(JobReport.self, from: Data(bytes))
    }
}
