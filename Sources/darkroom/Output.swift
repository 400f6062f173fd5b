import Foundation

/// Writes a line to standard error (errors and diagnostics never go to stdout, so that
/// `--json` output stays parseable).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
