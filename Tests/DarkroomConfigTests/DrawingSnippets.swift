import Foundation

/// The README's drawing examples (the yaml blocks that start `# drawing example`), as chains
/// for `configWithChain`: the lines after `chain:`, one level less indented.
enum DrawingSnippets {
    static var all: [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "```yaml\n# drawing example").dropFirst().map { block in
            let body = block.components(separatedBy: "```")[0]
            let lines = body.components(separatedBy: "\n").drop { $0 != "chain:" }.dropFirst()
            return lines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
        }
    }
}
