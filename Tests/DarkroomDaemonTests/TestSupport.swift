import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

extension TemporaryFolder {
    /// Writes `bytes` at `relative`, creating folders as needed.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8]) -> String {
        let target = file(relative)
        try? FileManager.default.createDirectory(atPath: FileIO.parent(of: target), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: target, contents: Data(bytes))
        return target
    }

    /// Every file below the folder, relative, sorted (hidden ones included).
    func listing(_ relative: String = "") -> [String] {
        let root = relative.isEmpty ? path : file(relative)
        guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
        var out = [String]()
        while let item = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + item, isDirectory: &isDir), !isDir.boolValue {
                out.append(item)
            }
        }
        return out.sorted()
    }
}

/// A small opaque test card: a horizontal red ramp over a vertical green ramp.
func testCard(width: Int, height: Int) -> Image {
    Image(width: width, height: height) { x, y in
        Pixel(Float(x) / Float(max(1, width - 1)), Float(y) / Float(max(1, height - 1)), 0.5, 1)
    }
}

/// The test card encoded as a file's bytes.
func encodedCard(width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
    try ImageCodec.encode(testCard(width: width, height: height), options: EncodeOptions(format: format))
}

/// A chain from the filter catalogue, the way a config would hold it.
func chain(_ steps: [(String, [(String, RawValue)])]) throws -> ChainSpec {
    ChainSpec(try steps.map { try FilterInvocation(name: $0.0, rawArguments: $0.1.map { (name: $0.0, value: $0.1) }) })
}

/// The report as `jq` sees it: plain JSON objects, looked up by key.
func jsonObject(_ report: JobReport) throws -> [String: Any] {
    let any = try JSONSerialization.jsonObject(with: Data(report.jsonBytes()))
    return try XCTUnwrap(any as? [String: Any])
}
