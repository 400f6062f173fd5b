import XCTest
@testable import DarkroomCore

/// Output (x, y) is input (x + dx, y + dy), reads past the input answered by `edge`: exercises the
/// pipeline's band leases (rows past an edge, columns in the padding or copied) for every mode.
private struct ShiftKernel: PixelKernel {
    let size: Size
    let dx: Int, dy: Int
    let edge: EdgeMode
    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: edge)] }
    func inputRegions(for output: Rect) -> [Rect] { [Rect(x: output.x + dx, y: output.y + dy, width: output.width, height: output.height)] }
    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY { target.pointer(r.x, y).update(from: inputs[0].pointer(r.x + dx, y + dy), count: r.width) }
    }
}

private struct ShiftFilter: RegionFilter {
    static let descriptor = FilterDescriptor(name: "shift_test", displayName: "Shift (test)", categories: ["test"], description: "")
    let dx: Int, dy: Int, edge: EdgeMode
    init(parameters: ResolvedParameters) { (dx, dy, edge) = (0, 0, .clamp) }
    init(dx: Int, dy: Int, edge: EdgeMode) { (self.dx, self.dy, self.edge) = (dx, dy, edge) }
    func outputSize(for input: Size) -> Size { input }
    func plan(for input: Size) -> KernelPlan { KernelPlan(ShiftKernel(size: input, dx: dx, dy: dy, edge: edge)) }
}

final class EdgeModeTests: XCTestCase {
    func testIndicesOfEachMode() {
        let reads = [-7, -4, -3, -1, 0, 2, 3, 4, 6, 8]
        XCTAssertEqual(reads.map { EdgeMode.clamp.index($0, extent: 3) }, [0, 0, 0, 0, 0, 2, 2, 2, 2, 2])
        XCTAssertEqual(reads.map { EdgeMode.transparent.index($0, extent: 3) }, [nil, nil, nil, nil, 0, 2, nil, nil, nil, nil])
        XCTAssertEqual(reads.map { EdgeMode.repeat.index($0, extent: 3) }, [2, 2, 0, 2, 0, 2, 0, 1, 0, 2])
        XCTAssertEqual(reads.map { EdgeMode.mirror.index($0, extent: 3) }, [0, 2, 2, 0, 0, 2, 2, 1, 0, 2])
        XCTAssertNil(EdgeMode.repeat.index(0, extent: 0))
    }

    /// Shifts near (inside the band padding), far (past it: rows copied) and by more than the
    /// image, through bands of several heights: every pixel is the input's at the mapped place.
    func testEveryModeThroughTheBandCache() throws {
        let input = KernelContractTests.input(23, 17)
        for edge in [EdgeMode.clamp, .transparent, .repeat, .mirror] {
            for (dx, dy) in [(3, -2), (-5, 7), (300, -40), (-47, 35), (0, 0)] {
                let filter = ShiftFilter(dx: dx, dy: dy, edge: edge)
                for executor in [StripExecutor(bandHeight: 4, concurrency: 2), StripExecutor(bandHeight: 64, concurrency: 1)] {
                    let out = try filter.apply(to: input, executor: executor)
                    var wrong = 0
                    for y in 0..<input.height { for x in 0..<input.width {
                        let expected: Pixel
                        if let xx = edge.index(x + dx, extent: input.width), let yy = edge.index(y + dy, extent: input.height) {
                            expected = input[xx, yy]
                        } else {
                            expected = .zero
                        }
                        if out[x, y] != expected { wrong += 1 }
                    } }
                    XCTAssertEqual(wrong, 0, "\(edge), shift (\(dx), \(dy)), band height \(executor.bandHeight)")
                }
            }
        }
    }
}
