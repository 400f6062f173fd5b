@testable import DarkroomCore
import XCTest

/// Builds one filter from the one-line chain syntax, the way users write it, so tests also go
/// through parameter parsing and validation. `type` may be a concrete filter or an existential
/// such as `(any RegionFilter).self`.
func makeFilter<F>(_ text: String, as type: F.Type = F.self,
                   file: StaticString = #filePath, line: UInt = #line) throws -> F {
    let resolved = try ChainSyntax.parse(text).resolve(seed: 1)
    guard resolved.count == 1, let filter = resolved[0].filter as? F else {
        XCTFail("\"\(text)\" did not build one \(F.self)", file: file, line: line)
        throw ParameterError("wrong filter")
    }
    return filter
}

/// Builds one region filter from chain text (see `makeFilter`).
func regionFilter(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> any RegionFilter {
    try makeFilter(text, as: (any RegionFilter).self, file: file, line: line)
}

/// The error message of building `text`, or nil when it builds.
func buildError(_ text: String) -> String? {
    do { _ = try ChainSyntax.parse(text).resolve(seed: 1) } catch { return error.message }
    return nil
}

/// An executor with small tiles on two workers, so tile seams fall inside the test images and
/// tiles really run in parallel.
let smallTiles = StripExecutor(bandHeight: 7, concurrency: 2)
