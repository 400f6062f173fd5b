import CSHA
import Glibc

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

    /// The hash of the first `size` bytes of an open file, read a megabyte at a time with
    /// `pread` (the descriptor's offset is left alone); nil with errno set when a read fails.
    /// Fewer bytes are hashed when the file shrank meanwhile.
    static func hex(descriptor fd: Int32, size: Int) -> String? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < size {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            _ = chunk.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, n) }
            offset += n
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return nil }
        return hexString(Array(digest.prefix(Int(length))))
    }

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
