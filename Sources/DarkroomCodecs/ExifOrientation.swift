/// Reads the Orientation tag (0x0112) from an EXIF TIFF stream.
///
/// Only IFD0 is read, which is where the tag lives. Anything malformed yields 1 (upright):
/// metadata must never stop an image from loading.
enum ExifOrientation {
    static func parse(_ tiff: [UInt8]) -> Int {
        guard tiff.count >= 8 else { return 1 }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return 1
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ at: Int) -> Int? {
            guard let hi = u16(bigEndian ? at : at + 2), let lo = u16(bigEndian ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return 1 }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return 1 }
            // Orientation is a SHORT (type 3) stored in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8) {
                return (1...8).contains(value) ? value : 1
            }
        }
        return 1
    }
}
