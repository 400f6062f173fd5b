/// The numbered siblings of a path that is taken: `photo.jpg` → `photo-1.jpg`, `photo-2.jpg`, …
/// (done and failed folders, and outputs under `on_conflict: number`).
enum NumberedName {
    static func candidate(_ path: String, _ n: Int) -> String {
        guard n > 0 else { return path }
        let folder = FileIO.parent(of: path)
        let name = FileIO.fileName(of: path)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return NameFit.fitFileName(of: "\(folder == "/" ? "" : folder)/\(stem)-\(n)\(ext)")
    }
}
