import DarkroomCodecs
import DarkroomCore

extension ConfigDecoder {
    static let outputKeys = ["path", "format", "chain"] + outputColorKeys + outputEncodingKeys

    /// Nil when the output has no usable path or format.
    func decodeOutput(_ node: YAMLNode, path: String) -> (config: OutputConfig, mark: SourceMark)? {
        guard let f = fields(node, path: path, known: Self.outputKeys) else { return nil }
        let template = required(f, "path", "where to write, e.g. ./outbox/{stem}.jpg").flatMap { node in
            absolutePath(node, f.path("path"), "expected an output path such as ./outbox/{stem}.jpg").flatMap {
                checkTemplate($0, node: node, path: f.path("path"))
            }
        }
        let format = template.flatMap { outputFormat(f, template: $0) }
        let color = decodeOutputColor(f)
        let encoding = decodeEncoding(f, format: format)
        checkExclusions(f, encoding)
        let chain = f["chain"].map { decodeChain($0, path: f.path("chain")) } ?? ChainSpec([], registry: registry, assets: assets)
        if format == .jxl, encoding.value(.losslessJPEG, for: .jxl)?.boolean == true, let node = f["lossless_jpeg"],
           let problem = JPEGTranscoding.chainProblem(filters: chain.steps.map(\.name)) {
            error(node.mark, f.path("lossless_jpeg"), problem)
        }
        if encoding.pages == .all, let template, !OutputTemplate.placeholders(in: template).contains("page"), let node = f["pages"] {
            error(node.mark, f.path("pages"), "pages: all writes one file per page of a PDF; put {page} in the path, "
                  + "e.g. " + ConfigPath.standardize(template + "/..") + "/{stem}-{page}.png")
        }
        if encoding.pages == .all, let node = f["page"] {
            error(node.mark, f.path("page"), "page names one page and pages: all asks for every page; give one of them")
        }
        guard let template, let format else { return nil }
        return (OutputConfig(pathTemplate: template, format: format, color: color, encoding: encoding, chain: chain), f.mark("path"))
    }

    /// A key written beside an option that excludes it (``OutputOption/Exclusion``), refused where the key is.
    private func checkExclusions(_ f: Fields, _ encoding: OutputEncoding) {
        for option in OutputOption.all {
            guard let exclusion = option.exclusion, let value = encoding[option] else { continue }
            for key in exclusion.keys {
                if let node = f[key], let problem = option.conflict(with: key, value: value) { error(node.mark, f.path(key), problem) }
            }
        }
    }

    /// Unknown placeholders and a template that would make every input overwrite one file.
    private func checkTemplate(_ template: String, node: YAMLNode, path: String) -> String? {
        let names = OutputTemplate.placeholders(in: template)
        var ok = true
        for name in names where !OutputTemplate.placeholders.contains(name) {
            error(node.mark, path, "unknown placeholder {\(name)}" + suggestionText(name, among: OutputTemplate.placeholders))
            ok = false
        }
        if ok, !names.contains("stem"), !names.contains("name") {
            error(node.mark, path, "holds neither {stem} nor {name}, so every input would overwrite the same file; write e.g. \(template.hasSuffix("/") ? template : ConfigPath.standardize(template + "/..") + "/{stem}.jpg")")
            ok = false
        }
        return ok ? template : nil
    }

    /// `format` as given, else as the template's extension says; they must agree.
    private func outputFormat(_ f: Fields, template: String) -> ImageFormat? {
        let ext = OutputTemplate.fixedExtension(of: template)
        let implied = ext.flatMap(ImageFormat.writable(fileExtension:))
        guard let node = f["format"] else {
            if implied == nil {
                error(f.mark("path"), f.path("path"), "cannot tell the format from " + (ext.map { "the extension \".\($0)\"" } ?? "a path without a fixed extension") + "; add format: " + ImageFormat.writableList)
            }
            return implied
        }
        guard let word = word(node, f.path("format"), among: ImageFormat.writableWords) else { return nil }
        let format = ImageFormat.writable(fileExtension: word)
        if let ext, let implied, let format, implied != format {
            error(node.mark, f.path("format"), "format \(format.rawValue) does not match the extension \".\(ext)\" of the path")
            return nil
        }
        return format
    }
}
