import DarkroomCodecs
import DarkroomCore

/// The daemon's thumbnails of a job's input and outputs, for the contact sheet: reduced from
/// the rows each render decodes and encodes anyway (``ChainRenderer``'s `thumbnailBox`), so a
/// sheet reads a small file instead of decoding the image again. Encoded as the sheet encodes
/// its own (``format``, ``quality``) and written before the report (``WatchLayout/thumbnailFolder(forRelative:)``), each atomically.
enum JobThumbnails {
    static let format = ImageFormat.webp
    static let quality = 70

    /// `image` encoded, not yet named or written; nil when there is no picture.
    static func encode(_ image: Image?, box: Int) -> ReportThumbnail? {
        guard let image, let bytes = try? ImageCodec.encode(image, options: EncodeOptions(format: format, quality: quality))
        else { return nil }
        return ReportThumbnail(file: "", box: box, width: image.width, height: image.height, pending: bytes)
    }

    /// Writes the pictures `report` holds into `folder`, named as the report is
    /// (`photo.jpg.input.webp`, `photo.jpg.output-1.webp` for `photo.jpg.json`), and keeps
    /// their paths in it. The input's is stamped with `input` (the file as the job opened it).
    /// A picture that cannot be written is left out of the report (the sheet then makes its
    /// own); the first error is returned, to be logged.
    static func write(_ report: inout JobReport, folder: String, reportName: String, input: FileStamp?) -> FileError? {
        let base = reportName.hasSuffix(".json") ? String(reportName.dropLast(5)) : reportName
        var failure: FileError?
        func place(_ thumbnail: inout ReportThumbnail?, suffix: String) {
            guard var t = thumbnail, let bytes = t.pending else { return }
            t.file = folder + "/" + NameFit.fit(base, suffix: suffix)
            t.pending = nil
            do throws(FileError) {
                try AtomicFile.write(bytes, to: t.file, durable: false)
                thumbnail = t
            } catch {
                failure = failure ?? error
                thumbnail = nil
            }
        }
        if let input { report.input.thumbnail?.record(input) } else { report.input.thumbnail = nil }
        place(&report.input.thumbnail, suffix: ".input." + format.fileExtension)
        for i in report.outputs.indices {
            place(&report.outputs[i].thumbnail, suffix: ".output-\(i + 1)." + format.fileExtension)
        }
        return failure
    }
}

extension ReportDraft {
    /// The pictures of one output render: the output's, and the input's from the first render
    /// that decoded the whole input. `placedAt`: where the output now is, to stamp its picture.
    mutating func addThumbnails(of rendered: ChainRenderer.Output, box: Int, placedAt path: String) {
        if input.thumbnail == nil { input.thumbnail = JobThumbnails.encode(rendered.inputThumbnail, box: box) }
        guard var picture = JobThumbnails.encode(rendered.outputThumbnail, box: box), let stamp = FileStamp.of(path) else { return }
        picture.record(stamp)
        outputs[outputs.count - 1].thumbnail = picture
    }
}
