import Foundation
import Glibc

/// Visits every report (`*.json`) below a folder, reading the folder as it goes (`readdir`), so
/// a folder of 100,000 reports never becomes an array of 100,000 names. A recursive watch
/// mirrors its subfolders into the reports folder, so subfolders are walked too. Hidden files
/// (temporary names of reports being written) are skipped.
enum ReportFolderWalk {
    /// Calls `visit` with each report's path; returns false when `folder` cannot be opened.
    static func walk(_ folder: String, _ visit: (String) -> Void) -> Bool {
        var pending = [folder]
        var opened = false
        while let current = pending.popLast() {
            guard let dir = opendir(current) else { continue }
            if current == folder { opened = true }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                guard !name.hasPrefix(".") else { continue }
                let path = current + "/" + name
                var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    var st = stat()
                    isDirectory = stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
                }
                if isDirectory {
                    pending.append(path)
                } else if name.hasSuffix(".json") {
                    visit(path)
                }
            }
        }
        return opened
    }
}
