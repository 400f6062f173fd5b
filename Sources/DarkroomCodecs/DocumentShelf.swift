import CDarkroomCodecs
import Foundation

/// Where a PDF or SVG input keeps its parsed document (poppler's or librsvg's) between reads.
///
/// The header read parses the file and shelves the document; each ``ImageDecoder`` of the same
/// input takes it off the shelf and puts it back when it goes, so the file is parsed once however
/// often it is read (the header, each output, each page of `pages: all`, each analysis pass). A
/// document serves one decoder at a time: a decoder that finds the shelf empty (the document lent
/// to another decoder still open, or no header read yet) parses the bytes itself. The shelved
/// document is closed with the last copy of its ``ImageInput``.
final class DocumentShelf: @unchecked Sendable {  // `lock` guards `document`
    private let lock = NSLock()
    private var document: OpaquePointer?

    deinit { dr_document_close(document) }

    /// The header, from the shelved document, or from parsing `bytes` (the document then shelved;
    /// nothing is kept when they cannot be parsed).
    func readInfo(_ bytes: UnsafeBufferPointer<UInt8>, into info: inout dr_info) throws(CodecError) {
        if let document = take() {
            defer { put(document) }
            try CBridge.call { dr_document_info(document, &info, $0, $1) }
            return
        }
        var parsed: OpaquePointer?
        try CBridge.call { dr_document_open(bytes.baseAddress, bytes.count, &info, &parsed, $0, $1) }
        if let parsed { put(parsed) }
    }

    /// The shelved document, the caller's alone until it ``put(_:)``s it back; nil when the shelf
    /// is empty.
    func take() -> OpaquePointer? {
        lock.withLock {
            defer { document = nil }
            return document
        }
    }

    /// Shelves `returned`, or closes it when the shelf holds a document already.
    func put(_ returned: OpaquePointer) {
        let surplus: OpaquePointer? = lock.withLock {
            guard document == nil else { return returned }
            document = returned
            return nil
        }
        dr_document_close(surplus)
    }
}
