import CDarkroomCodecs
import DarkroomCore
#if canImport(Glibc)
import Glibc
#endif

/// `lossless_jpeg: true`: a JPEG input written as a JPEG XL without decoding its pixels. libjxl
/// recodes the JPEG's DCT coefficients losslessly and keeps what rebuilds the original file byte
/// for byte (`djxl out.jxl back.jpg`); the file is about a fifth smaller than the JPEG. Nothing
/// of the chain, colour or metadata options applies: pixels, ICC profile, EXIF (orientation
/// included) and XMP are the JPEG's own, so the chain must be empty.
public enum JPEGTranscoding {
    /// Why `lossless_jpeg: true` cannot be applied to a chain of `steps` filters (nil when it can):
    /// the words `darkroom check` and a job use.
    public static func chainProblem(filters names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        return "lossless_jpeg: true keeps the JPEG's coded data as it is, so the output's chain must be empty "
            + "(this one has \(names.joined(separator: ", "))); remove the chain, or lossless_jpeg to encode the filtered pixels"
    }

    /// The output of `input` for `plan` (an empty chain, a JPEG source), transcoded.
    static func render(_ input: ImageInput, plan: ChainRenderer.Plan, options: EncodeOptions) throws(CodecError) -> ChainRenderer.Output {
        guard plan.sourceFormat == .jpeg else {
            throw CodecError(code: .unsupported, message: "lossless_jpeg: true transcodes JPEG inputs only, and this is "
                             + "\(plan.sourceFormat.rawValue); write lossless_jpeg: false (the default) to encode its pixels")
        }
        if let problem = chainProblem(filters: plan.chain.stages.flatMap(\.names)) {
            throw CodecError(code: .chainFailed, message: problem)
        }
        DecoderThreads.registered  // libjxl's stages take helpers from the compute slots
        let start = ContinuousClock.now
        let jpeg = try bytes(of: input)
        var out = dr_buffer()
        defer { dr_buffer_free(&out) }
        try jpeg.withUnsafeBufferPointer { (bytes) throws(CodecError) in
            try CBridge.call { dr_jxl_transcode_jpeg(bytes.baseAddress, bytes.count, Int32(options.jxlEffort), &out, $0, $1) }
        }
        let file = out.data.map { Array(UnsafeBufferPointer(start: $0, count: out.length)) } ?? []
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return ChainRenderer.Output(bytes: file, byteCount: file.count, size: plan.uprightSize,
                                    stats: .encodedWhole(seconds: seconds), shrinkOnLoad: 1, cropOnLoad: nil, warnings: [],
                                    metadataWarnings: [], orientationApplied: 1, colorConvertedFrom: nil)
    }

    /// The whole file: the JPEG's coefficients are recoded at once.
    private static func bytes(of input: ImageInput) throws(CodecError) -> [UInt8] {
        switch input.storage {
        case .memory(let bytes): return bytes
        case .file(let fd, let size, _):
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                var done = 0
                while done < size {
                    let n = pread(fd, buffer.baseAddress! + done, size - done, off_t(done))
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { failure = n < 0 ? errno : 0; break }
                    done += n
                }
                initialized = done
            }
            guard bytes.count == size else {
                throw CodecError(code: .truncated, message: failure != 0 ? "the JPEG could not be read: \(String(cString: strerror(failure)))"
                                                                           : "the JPEG ended while it was read (\(bytes.count) of \(size) bytes)")
            }
            return bytes
        }
    }
}
