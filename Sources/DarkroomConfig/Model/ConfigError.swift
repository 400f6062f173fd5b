/// One problem found in a config, where it is and what was expected.
///
/// Reads `config.yaml:14:11: watches[0].outputs[1].chain[0] resize.width: expected an integer
/// from 1 to 65535, got "wide"`. Line 0 means the problem concerns the whole file (it could not
/// be read, say), and the position is left out.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}

/// A config that cannot be used, with every problem found in it (not just the first).
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// In the order they stand in the file.
    public var diagnostics: [ConfigDiagnostic]

    public init(diagnostics: [ConfigDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
