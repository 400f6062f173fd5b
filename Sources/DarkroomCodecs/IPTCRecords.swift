/// IPTC-NAA (IIM) records: a run of datasets, each `0x1C`, record number, dataset number, a
/// 2-byte big-endian length and the data. Only the ownership datasets are picked out here.
enum IPTCRecords {
    /// Application record (2) datasets that say who made and owns the picture: record version
    /// (0), by-line (80), by-line title (85), credit (110), source (115), copyright notice (116).
    static let ownershipDatasets: Set<UInt8> = [0, 80, 85, 110, 115, 116]

    /// The ownership datasets of `records`, or nil when there are none (or the records are not
    /// readable IIM: extended lengths, a stray byte).
    static func ownership(_ records: [UInt8]) -> [UInt8]? {
        var out = [UInt8](), at = 0, owners = 0
        while at + 5 <= records.count, records[at] == 0x1C {
            let record = records[at + 1], dataset = records[at + 2]
            let length = Int(records[at + 3]) << 8 | Int(records[at + 4])
            // A set high bit announces an extended length: rare, and not needed for these texts.
            guard length & 0x8000 == 0, at + 5 + length <= records.count else { return nil }
            if record == 2, ownershipDatasets.contains(dataset) {
                out += records[at..<at + 5 + length]
                if dataset != 0 { owners += 1 }
            }
            at += 5 + length
        }
        return owners > 0 ? out : nil
    }
}
