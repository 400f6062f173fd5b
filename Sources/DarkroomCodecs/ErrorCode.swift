/// Why a file failed, as a report's `error.code` says it: every code darkroom writes, each with
/// what happened and what to do. The codecs raise some (``CodecError``), the daemon the others;
/// they are declared here, below both, so that one list holds them all and `darkroom errors`
/// and `docs/error-codes.md` are generated from it. The raw values are what reports hold:
/// never change one.
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    case notAnImage = "not_an_image"
    case corrupt
    case truncated
    case unsupported
    case tooLarge = "too_large"
    case io
    case encodeFailed = "encode_failed"
    /// Decoding ran past the job's time limit (`limits.max_seconds`).
    case timeout
    /// A graphic, SVG document or text block of the chain could not be drawn.
    case drawFailed = "draw_failed"
    /// The output's file refused the bytes an encoder wrote into it (a full disk); the
    /// message is the system's reason.
    case writeFailed = "write_failed"
    case chainFailed = "chain_failed"
    case outputExists = "output_exists"
    /// Cluster mode: the file was tried `cluster.max_attempts` times.
    case gaveUp = "gave_up"

    /// What happened.
    public var meaning: String {
        switch self {
        case .notAnImage: "The file is not an image darkroom reads: it has no \(ImageFormat.readableList) signature."
        case .corrupt: "The image's data is damaged: the decoder found values that cannot be."
        case .truncated: "The image ends before its data does (an interrupted copy or upload)."
        case .unsupported: "A valid image in a variant darkroom does not read or write (the message names it)."
        case .tooLarge: "The image has more pixels or bytes than `limits.max_pixels` or `limits.max_file_bytes` allow, or needs more memory than `limits.max_memory`."
        case .io: "The input could not be read: it vanished, is not a regular file, is still open for writing, or the system refused it."
        case .encodeFailed: "The encoder refused to write the output (the message gives its reason)."
        case .timeout: "The file took longer than `limits.max_seconds`."
        case .drawFailed: "A graphic, SVG document or text block of the chain could not be drawn: librsvg or Pango refused it, or it would be drawn larger than 2^28 pixels."
        case .writeFailed: "The output or the report could not be written: a full disk, a read-only or missing folder, or no permission."
        case .chainFailed: "The chain cannot be applied to this image (a crop outside it, a parameter its size makes impossible)."
        case .outputExists: "The output path already holds another input's output, and the output has `on_conflict: fail`."
        case .gaveUp: "Cluster mode: the file failed or its node stopped `cluster.max_attempts` times; the message holds the last error."
        }
    }

    /// What the user should do.
    public var remedy: String {
        switch self {
        case .notAnImage: "Check the watch's `include` patterns, or take the file out of the folder."
        case .corrupt: "Export or copy the file again from its source."
        case .truncated: "Copy the file again; if files often arrive half-written, raise the watch's `settle_ms`."
        case .unsupported: "Convert the file to a variant darkroom reads (e.g. 8- or 16-bit RGB), or write another format."
        case .tooLarge: "Raise the limit in `limits:` if such files are expected, or shrink the file first."
        case .io: "Check that the file is complete and readable by darkroom's user; drop it in again."
        case .encodeFailed: "Change the output's options (see `darkroom formats`) or its format."
        case .timeout: "Raise `limits.max_seconds`, or make the chain cheaper (resize first)."
        case .drawFailed: "Fix the asset the message names (open it in a browser or `rsvg-convert`), or draw it smaller."
        case .writeFailed: "Free disk space or fix the folder's permissions, then drop the input in again."
        case .chainFailed: "Fix the chain for such images (the message names the filter and the parameter)."
        case .outputExists: "Add `{dir}` or `{ext}` to the output path, or set `on_conflict: number` or `overwrite`."
        case .gaveUp: "Read the last error and fix its cause, then drop the file in again."
        }
    }
}
