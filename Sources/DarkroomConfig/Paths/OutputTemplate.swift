import Foundation

/// The placeholders an output path may hold, filled in for each input:
/// `{stem}` (input file name without extension), `{name}` (with it), `{ext}` (the input's
/// extension, without the dot), `{watch}` (the watch's name) and `{dir}` (the folder of the
/// input below the watched folder, empty at its top; `a/b` for `a/b/x.jpg`) and `{page}` (the
/// page of a PDF input, 1 for every other input; with `pages: all` each page's own number).
public enum OutputTemplate {
    public static let placeholders = ["stem", "name", "ext", "watch", "dir", "page"]

    /// The names written in braces in `template`, in order.
    static func placeholders(in template: String) -> [String] {
        var names = [String](), current: String?
        for ch in template {
            if ch == "{" { current = "" } else if ch == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil { current?.append(ch) }
        }
        return names
    }

    /// Fills the placeholders for one input file. `relativePath` is the input's path below the
    /// watched folder (`a/b/x.jpg`). With `mirrorFolders` (a recursive watch) a template without
    /// `{dir}` gets the input's folder inserted before its file name, so `a/x.jpg` and `b/x.jpg`
    /// do not write the same output.
    public static func render(_ template: String, relativePath: String, watch: String, mirrorFolders: Bool = false,
                              page: Int = 1) -> String {
        let name = ConfigPath.lastComponent(of: relativePath)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        let dir = relativePath.split(separator: "/", omittingEmptySubsequences: true).dropLast().joined(separator: "/")
        var filled = template
        if !template.contains("{dir}"), mirrorFolders, !dir.isEmpty, let slash = filled.lastIndex(of: "/") {
            filled.insert(contentsOf: "/{dir}", at: slash)
        }
        filled = filled.replacingOccurrences(of: "{stem}", with: stem)
            .replacingOccurrences(of: "{name}", with: name)
            .replacingOccurrences(of: "{ext}", with: ext)
            .replacingOccurrences(of: "{watch}", with: watch)
            .replacingOccurrences(of: "{dir}", with: dir)
            .replacingOccurrences(of: "{page}", with: String(page))
        // An empty {dir} leaves "//": one slash, as the path means.
        while filled.contains("//") { filled = filled.replacingOccurrences(of: "//", with: "/") }
        return filled
    }

    /// The folder every output of this template lands in or below, known before any input:
    /// `{watch}` filled in, cut before the first component that still holds a placeholder,
    /// and without the file name.
    public static func fixedDirectory(of template: String, watch: String) -> String {
        let filled = template.replacingOccurrences(of: "{watch}", with: watch)
        var components = filled.split(separator: "/").map(String.init)
        if let open = components.firstIndex(where: { $0.contains("{") }) {
            components = Array(components[..<open])
        } else if !components.isEmpty {
            components.removeLast()
        }
        return "/" + components.joined(separator: "/")
    }

    /// The extension of the template's file name when it is fixed (`.jpg`), nil when it is
    /// missing or a placeholder (`{ext}`).
    static func fixedExtension(of template: String) -> String? {
        let name = ConfigPath.lastComponent(of: template)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty || ext.contains("{") || ext.contains("}") ? nil : String(ext)
    }
}

extension OutputConfig {
    /// Where this output goes for an input at `relativePath` below the folder of the watch named
    /// `watch` (a plain file name outside a watch); `mirrorFolders` for recursive watches.
    public func path(forInput relativePath: String, watch: String, mirrorFolders: Bool = false, page: Int = 1) -> String {
        OutputTemplate.render(pathTemplate, relativePath: relativePath, watch: watch, mirrorFolders: mirrorFolders, page: page)
    }
}
