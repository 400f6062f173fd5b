import CLibFuzzer
import DarkroomCodecs
import Foundation

// libFuzzer's harness over darkroom's decoders (docs/fuzzing.md). Each input is decoded the way a
// job decodes it (``FuzzDecode``: the daemon's default limits, header and metadata, then every
// row, band by band). The process dies only on a crash, a hang, a leak or a precondition, which
// is what libFuzzer reports; a ``CodecError`` is the clean outcome of a bad file.
//
// DARKROOM_FUZZ_FORMAT names the one format a run fuzzes (an ImageFormat raw value: png, jpeg,
// …): an input sniffed as another format is rejected (-1), so it never enters the corpus and the
// mutations stay on that decoder. Unset, every format is fuzzed at once.
enum Harness {
    static let formatName = ProcessInfo.processInfo.environment["DARKROOM_FUZZ_FORMAT"] ?? ""
    static let format = ImageFormat(rawValue: formatName)
    /// The daemon's defaults (DarkroomConfig's `Limits()`): 100 MP, 256 MiB.
    static let limits = DecodeLimits(maxPixels: 100_000_000, maxFileBytes: 256 << 20)
}

if !Harness.formatName.isEmpty, Harness.format == nil {
    let known = ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("darkroom-fuzz: DARKROOM_FUZZ_FORMAT=\(Harness.formatName) is not a format darkroom reads (\(known))\n".utf8))
    exit(2)
}

/// One input; the name libFuzzer's own main (linked by -sanitize=fuzzer) also calls.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = ImageInput(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    if let format = Harness.format, input.format != format { return -1 }
    FuzzDecode.run(input, limits: Harness.limits)
    return 0
}

// SwiftPM makes this module's top-level code the program's main, in place of libFuzzer's.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
