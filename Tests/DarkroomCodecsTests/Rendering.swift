import DarkroomCodecs
@testable import DarkroomCore

/// `chain` (the config's one-line syntax; empty for none) rendered on the file `input` and
/// encoded as `options` say, through the streaming renderer jobs use (turned upright by its EXIF
/// orientation unless `autoOrient` is false).
func render(_ input: [UInt8], _ chain: String = "", options: EncodeOptions, autoOrient: Bool = true) throws -> ChainRenderer.Output {
    let compiled = chain.isEmpty ? CompiledChain(stages: []) : ChainCompiler.compile(try ChainSyntax.parse(chain).resolve(seed: 1))
    let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(input), autoOrient: autoOrient)
    return try ChainRenderer.render(input, plan: plan, options: options, limits: .init())
}

/// A PNG's bit depth and colour type as its IHDR chunk declares them (0 grey, 2 RGB, 3 palette,
/// 4 grey+alpha, 6 RGBA).
func pngHeader(_ png: [UInt8]) -> (depth: Int, colorType: Int) { (Int(png[24]), Int(png[25])) }
