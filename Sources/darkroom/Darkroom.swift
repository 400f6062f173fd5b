import ArgumentParser
import DarkroomDaemon

/// The `darkroom` command: a daemon that turns folders into image pipelines, and the tools
/// around it.
@main
struct Darkroom: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "Turns folders into image pipelines.",
        discussion: """
            A YAML config maps watched folders to filter chains. `darkroom run` watches them and \
            writes an output image per chain and a JSON report per input. `darkroom process` runs \
            a chain once over files, `darkroom filters` lists the filters, `darkroom formats` the \
            output formats and their options, `darkroom errors` the report's error codes, `darkroom check` \
            validates a config, `darkroom status` shows what the running daemon is doing and \
            `darkroom report` summarises its reports, and `darkroom cluster` sets up the \
            PostgreSQL database several nodes share (`cluster:` in the config).
            """,
        version: DarkroomVersion.string,
        subcommands: [RunCommand.self, ProcessCommand.self, FiltersCommand.self, FormatsCommand.self, ErrorsCommand.self, CheckCommand.self,
                      StatusCommand.self, ReportCommand.self, ClusterCommand.self]
    )

    static func main() {
        ProcessMemory.returnLargeBlocks()
        main(nil)
    }
}
