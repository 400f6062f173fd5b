import ArgumentParser
import DarkroomDrawing
import DarkroomCore
import Foundation

/// `darkroom filters`: the registry, generated from the filter descriptors.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the filters with every parameter's kind, default and range."
    )

    @Option(name: .shortAndLong, help: "Only filters in this category (e.g. color, blur, geometry).")
    var category: String?

    @Flag(help: "Print JSON (for scripts and documentation).")
    var json = false

    @Flag(help: "Print only the image formats and their output options.")
    var formats = false

    @Flag(help: "Print the reference as Markdown (docs/filters.md is this output).")
    var markdown = false

    func validate() throws {
        if json && markdown { throw ValidationError("--json and --markdown are two formats: choose one.") }
    }

    func run() throws {
        if formats {
            print(FormatHelpText.render())
            return
        }
        let registry = FilterRegistry.shipped
        var descriptors = registry.descriptors
        if let category {
            guard registry.categories.contains(category) else {
                printError("unknown category \"\(category)\"" + suggestionText(category, among: registry.categories))
                throw ExitCode(64)
            }
            descriptors = registry.descriptors(inCategory: category)
        }
        if markdown {
            print(FilterMarkdown.render(descriptors), terminator: "")
        } else if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(descriptors), as: UTF8.self))
        } else {
            print(FilterHelpText.render(descriptors))
            if category == nil { print("\n" + FormatHelpText.render()) }
        }
    }
}
