import Foundation

/// The drawing examples of docs/chains.md (the yaml blocks that start `# drawing example`), as chains
/// for `configWithChain`: the lines after `chain:`, one level less indented.
enum DrawingSnippets {
    static var all: [String] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/chains.md")
        guard let text = try? String(contentsOf: page, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "```yaml\n# drawing example").dropFirst().map { block in
            let body = block.components(separatedBy: "```")[0]
            let lines = body.components(separatedBy: "\n").drop { $0 != "chain:" }.dropFirst()
            return lines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
        }
    }
}
