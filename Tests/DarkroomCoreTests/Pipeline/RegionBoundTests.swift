import XCTest
@testable import DarkroomCore

/// A kernel that reads outside the region it declared is a bug in that filter: the render fails
/// with an error naming it (one failed test or file), never a crash of the whole process or a
/// read of memory the view does not own.
final class RegionBoundTests: XCTestCase {
    /// A 1×3 vertical box blur that forgets its halo: it declares the output rectangle as its
    /// input region but reads the rows above and below.
    struct HaloForgottenKernel: PixelKernel {
        let outputSize: Size
        var inputs: [KernelInput] { [KernelInput(size: outputSize, edge: .clamp)] }

        func inputRegions(for output: Rect) -> [Rect] { [output] }

        func render(_ inputs: [RegionView], into target: RegionTarget) {
            let r = target.rect
            for y in r.y..<r.maxY {
                let above = inputs[0].pointer(r.x, y - 1), here = inputs[0].pointer(r.x, y), below = inputs[0].pointer(r.x, y + 1)
                for x in 0..<r.width { target.pointer(r.x + x, y)[0] = (above[x] + here[x] + below[x]) / 3 }
            }
        }
    }

    struct HaloForgottenFilter: RegionFilter {
        static let descriptor = FilterDescriptor(name: "halo_forgotten", displayName: "Halo Forgotten", categories: ["test"],
                                                 description: "A blur whose kernel under-declares its input region.")
        init(parameters: ResolvedParameters) {}
        init() {}
        func outputSize(for input: Size) -> Size { input }
        func plan(for input: Size) -> KernelPlan { KernelPlan(HaloForgottenKernel(outputSize: input)) }
    }

    func testAKernelReadingOutsideItsRegionFailsTheRenderWithItsName() {
        let input = TestImage.texture(width: 40, height: 64)
        for executor in [StripExecutor(bandHeight: 8, concurrency: 1), StripExecutor(bandHeight: 16, concurrency: 2)] {
            XCTAssertThrowsError(try HaloForgottenFilter().apply(to: input, executor: executor)) { error in
                XCTAssertEqual(error as? PipelineError, .kernelReadOutsideItsRegion("HaloForgottenKernel"))
                XCTAssertTrue("\(error)".contains("HaloForgottenKernel read pixels outside the region it declared"), "\(error)")
            }
        }
    }

    /// The same blur declaring its halo renders, and agrees with the formula.
    func testTheCheckLetsAKernelReadExactlyItsRegion() throws {
        struct Declared: RegionFilter {
            static let descriptor = HaloForgottenFilter.descriptor
            init(parameters: ResolvedParameters) {}
            init() {}
            func outputSize(for input: Size) -> Size { input }
            func plan(for input: Size) -> KernelPlan { KernelPlan(WithHalo(outputSize: input)) }
        }
        struct WithHalo: PixelKernel {
            let outputSize: Size
            var inputs: [KernelInput] { [KernelInput(size: outputSize, edge: .clamp)] }
            func inputRegions(for output: Rect) -> [Rect] { [Rect(x: output.x, y: output.y - 1, width: output.width, height: output.height + 2)] }
            func render(_ inputs: [RegionView], into target: RegionTarget) {
                HaloForgottenKernel(outputSize: outputSize).render(inputs, into: target)
            }
        }
        let input = TestImage.texture(width: 40, height: 64)
        let output = try Declared().apply(to: input, executor: StripExecutor(bandHeight: 8, concurrency: 2))
        for (x, y) in [(0, 0), (17, 31), (39, 63)] {
            let expected = (input[x, max(y - 1, 0)] + input[x, y] + input[x, min(y + 1, 63)]) / 3
            XCTAssertEqual(output[x, y][0], expected[0], accuracy: 1e-6)
        }
    }
}
