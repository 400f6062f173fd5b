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
    fileprivate struct Stamp: Equatable {
        var size: Int
        var modified: Date
    }

    fileprivate enum Entry {
        case image(any ImageAsset)
        case data(DataAsset)
    }

    /// The loaded files, shared by this store and every ``limited(maxPixels:maxFileBytes:)``
    /// view of it, so a file is held once whatever limits the configs set.
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var entries = [String: (stamp: Stamp, entry: Entry)]()
    }

    private let limits: DecodeLimits
    private let hash: @Sendable ([UInt8]) -> String
    private let cache: Cache

    /// - Parameter hash: SHA-256 of a file's bytes as lowercase hex (the report's form).
    public convenience init(limits: DecodeLimits = DecodeLimits(), hash: @escaping @Sendable ([UInt8]) -> String) {
        self.init(limits: limits, hash: hash, cache: Cache())
    }

    private init(limits: DecodeLimits, hash: @escaping @Sendable ([UInt8]) -> String, cache: Cache) {
        self.limits = limits
        self.hash = hash
        self.cache = cache
    }

    /// The same files under a config's limits: a file past them is refused even when another
    /// config, with larger limits, already loaded it.
    public func limited(maxPixels: Int, maxFileBytes: Int) -> any AssetResolver {
        AssetStore(limits: DecodeLimits(maxPixels: maxPixels, maxFileBytes: maxFileBytes), hash: hash, cache: cache)
    }

    /// Forgets every file, so the next use reads it again (SIGHUP).
    public func reload() {
        cache.lock.lock()
        cache.entries.removeAll()
        cache.lock.unlock()
    }

    /// Bytes of pixels held, each asset once: what the memory budget sets aside for assets.
    public var byteCount: Int {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        return cache.entries.values.reduce(0) { total, held in
            if case .image(let image) = held.entry { return total + image.byteCount }
            return total
        }
    }

    public func image(at path: String) throws(ParameterError) -> any ImageAsset {
        let (stamp, cached) = try lookUp(path)
        if case .image(let image)? = cached { return try withinLimits(image, path) }
        return try decodeImage(path, stamp, try read(path, stamp))
    }

    /// A cached image is held to the limits of the config asking for it.
    private func withinLimits(_ image: any ImageAsset, _ path: String) throws(ParameterError) -> any ImageAsset {
        guard image.size.area <= limits.maxPixels else {
            throw ParameterError("\(path): too large (\(image.size.width)×\(image.size.height) pixels, more than limits.max_pixels \(limits.maxPixels))")
        }
        return image
    }

    /// An SVG document is kept as bytes (a drawing module renders it at the size it is drawn);
    /// anything else is decoded as an image.
    public func graphic(at path: String) throws(ParameterError) -> GraphicAsset {
        let (stamp, cached) = try lookUp(path)
        switch cached {
        case .image(let image)?: return .image(try withinLimits(image, path))
        case .data(let document)? where ImageFormat.detect(Array(document.bytes.prefix(ImageInput.headLength))) == .svg:
            return .svg(document)
        default: break
        }
        let bytes = try read(path, stamp)
        // Told as inputs are (dr_sniff), so a gzip'd SVG is one too.
        guard ImageFormat.detect(Array(bytes.prefix(ImageInput.headLength))) == .svg else {
            return .image(try decodeImage(path, stamp, bytes))
        }
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
            throw ParameterError("\(path): \(error.code == .notAnImage ? "not an image (\(ImageFormat.readableList))" : error.message)")
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
        guard stamp.size <= limits.maxFileBytes else {
            throw ParameterError("\(path): too large (\(stamp.size) bytes, more than limits.max_file_bytes \(limits.maxFileBytes))")
        }
        cache.lock.lock()
        defer { cache.lock.unlock() }
        guard let held = cache.entries[path], held.stamp == stamp else { return (stamp, nil) }
        return (stamp, held.entry)
    }

    private func read(_ path: String, _ stamp: Stamp) throws(ParameterError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ParameterError("\(path): cannot be read") }
        return [UInt8](data)
    }

    private func store(_ path: String, _ stamp: Stamp, _ entry: Entry) {
        cache.lock.lock()
        cache.entries[path] = (stamp, entry)
        cache.lock.unlock()
    }
}
