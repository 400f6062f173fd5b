import CSHA

/// SHA-256 through OpenSSL's libcrypto, as lowercase hex (what `sha256sum` prints).
public enum SHA256 {
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                _ = CSHA.SHA256(buffer.baseAddress, buffer.count, out.baseAddress)
            }
        }
        return hexString(digest)
    }

    public static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
