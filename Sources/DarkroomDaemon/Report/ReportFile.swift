import Foundation

/// Reading and writing reports as files.
extension JobReport {
    /// Pretty-printed JSON with sorted keys and a final newline, so two reports diff cleanly.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data([0x0A])
    }

    /// ``jsonData()`` as bytes; encoding plain values with finite numbers cannot fail.
    public func jsonBytes() -> [UInt8] {
        Array((try? jsonData()) ?? Data("{}\n".utf8))
    }

    /// The one-line summary the daemon logs for this job (see ``JobLogLine``).
    public var summaryLine: String {
        JobLogLine.text(for: self, inputName: FileIO.fileName(of: input.path))
    }

    /// The report's file name for an input named `inputName`: `photo.jpg.json`, or for a name
    /// too long for that, a shortened one with a hash (see ``NameFit``).
    public static func fileName(forInput inputName: String) -> String {
        NameFit.fit(inputName, suffix: ".json")
    }

    /// Writes the report atomically (see ``AtomicFile``).
    public func write(to path: String) throws(FileError) {
        try AtomicFile.write(jsonBytes(), to: path)
    }

    /// The report at `path`, or nil when it is missing or unreadable as a report.
    public static func read(from path: String) -> JobReport? {
        guard let bytes = try? FileIO.read(path, maxBytes: 16 << 20) else { return nil }
        return try? JSONDecoder().decode(JobReport.self, from: Data(bytes))
    }
}
