import DarkroomConfig
import DarkroomDaemon
import Foundation

/// Where an input is now. A report names the input where it was processed; the daemon then
/// moved it to `failed_dir` (failed) or `done_dir` (`on_success: move`), under the same
/// relative path, left it (`keep`) or removed it (`delete`). A name already taken there got a
/// number, which the report does not record.
///
/// Without the watch's config, the default layout is tried: `done` and `failed` beside the
/// input's folder.
struct InputLocator {
    let watches: [WatchConfig]

    /// The paths to look at, most likely first; the path it had when processed comes last.
    func candidates(of input: String, watch name: String, status: JobReport.Status) -> [String] {
        guard let watch = watches.first(where: { $0.name == name }), input.hasPrefix(watch.path + "/") else {
            let parent = (input as NSString).deletingLastPathComponent, file = (input as NSString).lastPathComponent
            let folder = status == .failed ? "failed" : "done"
            return [((parent as NSString).deletingLastPathComponent as NSString).appendingPathComponent(folder + "/" + file), input]
        }
        let relative = String(input.dropFirst(watch.path.count + 1))
        if status == .failed { return [watch.failedDirectory + "/" + relative, input] }
        return watch.onSuccess == .move ? [watch.doneDirectory + "/" + relative, input] : [input]
    }

    /// The first candidate that exists, else the path it had when processed.
    func currentPath(of input: String, watch: String, status: JobReport.Status) -> String {
        candidates(of: input, watch: watch, status: status).first { FileManager.default.fileExists(atPath: $0) } ?? input
    }

    /// Why an input is found nowhere, in words for the sheet's placeholder.
    func absence(of input: String, watch name: String, status: JobReport.Status) -> String {
        let looked = candidates(of: input, watch: name, status: status)
        if status != .failed, let watch = watches.first(where: { $0.name == name }), watch.onSuccess == .delete {
            return "removed after processing (the watch's on_success is delete)"
        }
        let hint = watches.isEmpty ? "; give the daemon's --config to look in its done_dir and failed_dir" : ""
        return "no longer there (looked at " + looked.joined(separator: ", ") + ")" + hint
    }
}
