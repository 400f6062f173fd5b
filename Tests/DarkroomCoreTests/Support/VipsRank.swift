@testable import DarkroomCore
import DarkroomTestSupport

/// How many channel values (R, G, B) of `median radius=r` differ from `vips rank` over the same
/// square at its middle index, inside the border (vips has its own rule at the edges). The image
/// goes to vips as float, so both sides rank the same values.
func medianMismatchesAgainstVipsRank(_ image: Image, radius r: Int, executor: StripExecutor = smallTiles) throws -> Int {
    let n = 2 * r + 1
    let ours = try regionFilter("median radius=\(r)").apply(to: image, executor: executor)
    let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm,
                                         ["rank", "$IN", "$OUT", "\(n)", "\(n)", "\(n * n / 2)"])
    var mismatches = 0
    for y in r..<(image.height - r) { for x in r..<(image.width - r) {
        for c in 0..<3 where ours[x, y][c] != vips[x, y][c] { mismatches += 1 }
    } }
    return mismatches
}
