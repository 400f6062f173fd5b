import CLibFuzzer
import DarkroomCodecs
import Foundation

// libFuzzer's harness over darkroom's decoders (docs/fuzzing.md). Each input is decoded the way a
// job decodes it (``FuzzDecode``: the daemon's limits, pixels held to a quarter; header and metadata, then every
// row, band by band). The process dies only on a crash, a hang, a leak or a precondition, which
// is what libFuzzer reports; a ``CodecError`` is the clean outcome of a bad file.
//
// DARKROOM_FUZZ_FORMAT names the one format a run fuzzes (an ImageFormat raw value: png, jpeg,
// …): an input sniffed as another format is rejected (-1), so it never enters the corpus and the
// mutations stay on that decoder. Unset, every format is fuzzed at once.
enum Harness {
    static let formatName = ProcessInfo.processInfo.environment["DARKROOM_FUZZ_FORMAT"] ?? ""
    static let format = ImageFormat(rawValue: formatName)
    /// The daemon's file-size default (256 MiB) and a quarter of its 100 MP: a GIF's or WebP's
    /// canvas size is a few header bytes, so mutations reach 50 MP and more at once, and pulling
    /// every row of such a canvas under ASan takes most of the 10 s hang limit without reaching
    /// any code a smaller canvas does not (the limit itself is tested in the suite).
    static let limits = DecodeLimits(maxPixels: 25_000_000, maxFileBytes: 256 << 20)
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
