import DarkroomCore
import XCTest

/// Builds one filter from the one-line chain syntax, the way users write it, so tests also go
/// through parameter parsing and validation.
func makeFilter<F: Filter>(_ text: String, as type: F.Type = F.self,
                           file: StaticString = #filePath, line: UInt = #line) throws -> F {
    let resolved = try ChainSyntax.parse(text).resolve(seed: 1)
    guard resolved.count == 1, let filter = resolved[0].filter as? F else {
        XCTFail("\"\(text)\" did not build one \(F.self)", file: file, line: line)
        throw ParameterError("wrong filter")
    }
    return filter
}

/// The error message of building `text`, or nil when it builds.
func buildError(_ text: String) -> String? {
    do { _ = try ChainSyntax.parse(text).resolve(seed: 1) } catch { return error.message }
    return nil
}

/// A serial executor with small tiles, so tile seams are exercised.
let smallTiles = TileExecutor(tileSize: 7, concurrency: 1)
