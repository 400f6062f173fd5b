/// Small 8-bit grey PNGs (colour type 0) built byte by byte, so a test controls every sample
/// and how much image data the file holds.
enum GreyPNG {
    /// A `width × rows.count` PNG whose IDAT holds the first `storedRows` rows (all by default):
    /// fewer make a well-formed file whose image data ends early.
    static func make(rows: [[UInt8]], storedRows: Int? = nil) -> [UInt8] {
        let width = rows.first?.count ?? 0
        var ihdr = [UInt8]()
        for v in [UInt32(width), UInt32(rows.count)] { ihdr += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        ihdr += [8, 0, 0, 0, 0]  // depth 8, grey, deflate, adaptive filtering, not interlaced
        let raw: [UInt8] = rows.prefix(storedRows ?? rows.count).flatMap { [UInt8(0)] + $0 }  // filter byte 0: none
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Splice.chunk("IHDR", ihdr)
            + Splice.chunk("IDAT", Splice.zlibStored(raw)) + Splice.chunk("IEND", [])
    }
}
