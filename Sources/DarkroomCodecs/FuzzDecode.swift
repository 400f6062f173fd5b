import DarkroomCore

/// What a job does with an input file's bytes, and nothing more: its header and metadata blocks,
/// then every row through an ``ImageDecoder`` in bands, as 8-bit RGB where the pipeline would
/// take them so and as pixels otherwise; once as stored and once converted to sRGB. Shared by
/// the libFuzzer harness (`make fuzz`, docs/fuzzing.md) and the tests that replay the inputs it found.
public enum FuzzDecode {
    /// Decodes `input`; returns the error a job would report, or nil when it decoded. Traps on
    /// an error that is not a ``CodecError`` (a job would report it as a bug).
    @discardableResult
    public static func run(_ input: ImageInput, limits: DecodeLimits, bandHeight: Int = 16) -> CodecError? {
        do throws(CodecError) {
            _ = try ImageCodec.readHeader(input)
            for intent in [nil, ColorOptions.Intent.relative] {
                let decoder = try ImageDecoder(input, options: DecodeOptions(limits: limits, convertToSRGB: intent))
                try readAllRows(decoder, bandHeight: bandHeight)
            }
            return nil
        } catch {
            precondition(!error.message.isEmpty, "a codec error without a message (\(error.code))")
            return error
        }
    }

    private static func readAllRows(_ decoder: ImageDecoder, bandHeight: Int) throws(CodecError) {
        let (width, height) = (decoder.size.width, decoder.size.height)
        guard width > 0, height > 0 else { return }
        let band = min(bandHeight, height)
        do {
            if decoder.isOpaque && decoder.isEightBit {
                var rows = [UInt8](repeating: 0, count: width * 3 * band)
                try rows.withUnsafeMutableBufferPointer { buffer in
                    for y in stride(from: 0, to: height, by: band) {
                        try decoder.readRGB8Rows(count: min(band, height - y), into: buffer.baseAddress!, rowBytes: width * 3)
                    }
                }
            } else {
                var rows = [Pixel](repeating: .zero, count: width * band)
                try rows.withUnsafeMutableBufferPointer { buffer in
                    for y in stride(from: 0, to: height, by: band) {
                        try decoder.readRows(count: min(band, height - y), into: buffer.baseAddress!, stride: width)
                    }
                }
            }
        } catch let error as CodecError {
            throw error
        } catch {
            preconditionFailure("the decoder threw \(error), not a CodecError")
        }
    }
}
