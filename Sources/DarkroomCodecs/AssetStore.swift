import DarkroomCore
import Foundation

/// The files filter parameters name (a watermark, a `.cube` LUT), each loaded once and shared
/// by every job that uses it: an image is decoded, turned upright (its EXIF orientation),
/// converted to sRGB and held compact (3 bytes a pixel when opaque 8-bit, else 8).
///
/// A file is read again when its size or modification time changed since it was loaded, and
/// every file after ``reload()`` (SIGHUP). Errors name the path and say what is wrong: missing,
/// unreadable, not an image, too large (`limits`). Thread-safe: one lock around the cache; a
/// file is loaded outside it, so a slow load does not stop jobs using other assets.
public final class AssetStore: AssetResolver, @unchecked Sendable {
    private struct Stamp: Equatable {
        var size: Int
        var modified: Date
    }

    private enum Entry {
        case image(any ImageAsset)
        case data(DataAsset)
    }

    private let limits: DecodeLimits
    private let hash: @Sendable ([UInt8]) -> String
    private let lock = NSLock()
    private var entries = [String: (stamp: Stamp, entry: Entry)]()

    /// - Parameter hash: SHA-256 of a file's bytes as lowercase hex (the report's form).
    public init(limits: DecodeLimits = DecodeLimits(), hash: @escaping @Sendable ([UInt8]) -> String) {
        self.limits = limits
        self.hash = hash
    }

    /// Forgets every file, so the next use reads it again (SIGHUP).
    public func reload() {
        lock.lock()
        entries.removeAll()
        lock.unlock()
    }

    /// Bytes of pixels held, each asset once: what the memory budget sets aside for assets.
    public var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.reduce(0) { total, held in
            if case .image(let image) = held.entry { return total + image.byteCount }
            return total
        }
    }

    public func image(at path: String) throws(ParameterError) -> any ImageAsset {
        let (stamp, cached) = try lookUp(path)
        if case .image(let image)? = cached { return image }
        return try decodeImage(path, stamp, try read(path, stamp))
    }

    /// An SVG document is kept as bytes (a drawing module renders it at the size it is drawn);
    /// anything else is decoded as an image.
    public func graphic(at path: String) throws(ParameterError) -> GraphicAsset {
        let (stamp, cached) = try lookUp(path)
        switch cached {
        case .image(let image)?: return .image(image)
        case .data(let document)? where GraphicAsset.looksLikeSVG(document.bytes): return .svg(document)
        default: break
        }
        let bytes = try read(path, stamp)
        guard GraphicAsset.looksLikeSVG(bytes) else { return .image(try decodeImage(path, stamp, bytes)) }
        let document = DataAsset(identity: AssetIdentity(path: path, sha256: hash(bytes)), bytes: bytes)
        store(path, stamp, .data(document))
        return .svg(document)
    }

    private func decodeImage(_ path: String, _ stamp: Stamp, _ bytes: [UInt8]) throws(ParameterError) -> any ImageAsset {
        let image: any ImageAsset
        do throws(CodecError) {
            let (decoded, info) = try ImageCodec.decode(bytes, limits: limits, convertToSRGB: .perceptual)
            let orientation = Orientation(exif: info.orientation)
            var traits = Pipeline.traits(of: decoded)
            traits.orientation = orientation
            let upright: Image
            do {
                upright = orientation == .up ? decoded : try Pipeline(chain: CompiledChain(stages: []), source: traits).render(decoded).image
            } catch {
                throw CodecError(code: .corrupt, message: "\(error)")
            }
            image = CompactAsset(upright, identity: AssetIdentity(path: path, sha256: hash(bytes)),
                                 eightBit: info.format == .jpeg || info.bitDepth <= 8)
        } catch {
            throw ParameterError("\(path): \(error.code == .notAnImage ? "not an image (PNG, JPEG, TIFF, WebP, HEIF or AVIF)" : error.message)")
        }
        store(path, stamp, .image(image))
        return image
    }

    public func data(at path: String) throws(ParameterError) -> DataAsset {
        let (stamp, cached) = try lookUp(path)
        if case .data(let data)? = cached { return data }
        let bytes = try read(path, stamp)
        let data = DataAsset(identity: AssetIdentity(path: path, sha256: hash(bytes)), bytes: bytes)
        store(path, stamp, .data(data))
        return data
    }

    /// The file's size and mtime, and the cached entry if they are those it was loaded with.
    private func lookUp(_ path: String) throws(ParameterError) -> (Stamp, Entry?) {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw ParameterError("\(path): no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw ParameterError("\(path): not a regular file") }
        let stamp = Stamp(size: (attributes[.size] as? Int) ?? 0, modified: (attributes[.modificationDate] as? Date) ?? .distantPast)
        lock.lock()
        defer { lock.unlock() }
        guard let held = entries[path], held.stamp == stamp else { return (stamp, nil) }
        return (stamp, held.entry)
    }

    private func read(_ path: String, _ stamp: Stamp) throws(ParameterError) -> [UInt8] {
        guard stamp.size <= limits.maxFileBytes else {
            throw ParameterError("\(path): too large (\(stamp.size) bytes, more than limits.max_file_bytes \(limits.maxFileBytes))")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw ParameterError("\(path): cannot be read") }
        return [UInt8](data)
    }

    private func store(_ path: String, _ stamp: Stamp, _ entry: Entry) {
        lock.lock()
        entries[path] = (stamp, entry)
        lock.unlock()
    }
}
