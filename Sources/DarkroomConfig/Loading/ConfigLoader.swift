import DarkroomCore
import Foundation

/// Reads, checks and types a darkroom config.
public enum ConfigLoader {
    /// Loads the config at `path`; relative paths inside it resolve against the file's folder.
    /// Diagnostics name the file as `path` was written. Files that filter parameters name (a
    /// watermark) are loaded through `assets`, so a missing or broken one is an error now.
    public static func load(path: String, registry: FilterRegistry = .standard,
                            assets: any AssetResolver = NoAssets()) throws(ConfigError) -> DaemonConfig {
        let absolute = ConfigPath.resolve(path, against: FileManager.default.currentDirectoryPath)
        let text: String
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: absolute))
            let bytes = [UInt8](data)
            if let bad = UTF8Position.firstInvalid(in: bytes) {
                throw ConfigError(diagnostics: [ConfigDiagnostic(file: path, line: bad.line, column: bad.column, message:
                    String(format: "byte 0x%02X is not UTF-8 text; save the file as UTF-8", bad.byte))])
            }
            text = String(decoding: bytes, as: UTF8.self)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(diagnostics: [ConfigDiagnostic(file: path, line: 0, column: 0,
                message: "cannot read the config: \((error as NSError).localizedDescription)")])
        }
        var config = try parse(text: text, fileName: path, baseDirectory: ConfigPath.standardize(absolute + "/.."),
                               registry: registry, assets: assets)
        config.sourcePath = absolute
        return config
    }

    /// Checks `text` as a config; `fileName` is what diagnostics call it, and relative paths
    /// resolve against `baseDirectory`. Every problem found is in the error, in file order.
    public static func parse(text: String, fileName: String, baseDirectory: String, registry: FilterRegistry = .standard,
                             assets: any AssetResolver = NoAssets()) throws(ConfigError) -> DaemonConfig {
        func fail(_ mark: SourceMark, _ message: String) -> ConfigError {
            ConfigError(diagnostics: [ConfigDiagnostic(file: fileName, line: mark.line, column: mark.column, message: message)])
        }
        let root: YAMLNode
        do {
            guard let node = try YAMLReader.read(text) else {
                throw fail(SourceMark(line: 1, column: 1), "the config is empty; it needs at least a watches: list")
            }
            root = node
        } catch let error as YAMLSyntaxError {
            throw fail(error.mark, error.message)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw fail(SourceMark(line: 1, column: 1), "\(error)")
        }
        let decoder = ConfigDecoder(file: fileName, baseDirectory: ConfigPath.resolve(baseDirectory, against: "/"),
                                    registry: registry, assets: assets)
        var (config, watches) = decoder.decodeConfig(root)
        decoder.checkFolders(watches)
        guard decoder.diagnostics.isEmpty else {
            throw ConfigError(diagnostics: decoder.diagnostics.enumerated().sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }.map(\.element))
        }
        config.sourceText = text
        config.warnings = decoder.warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        return config
    }
}
