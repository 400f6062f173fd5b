import DarkroomCore
import Foundation
import XCTest

/// Runs the `vips` command line on our images, for comparing filters with libvips.
///
/// Images travel as PFM (float RGB): vips reads and writes it without any codec library, and
/// float keeps 8-bit rounding out of the comparison. Rows are stored first-to-last = top-to-bottom,
/// which is how vips 8.14 reads and writes PFM (the format's spec says bottom-up; what matters
/// here is that vips and this helper agree, and the vertically asymmetric kernels in the tests
/// would show it if they did not).
enum VipsReference {
    static let executable = "/usr/bin/vips"

    /// Skips the calling test when vips is not installed (CI installs it).
    static func requireVips() throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw XCTSkip("vips is not installed at \(executable)")
        }
    }

    /// Writes `image` (opaque: its RGB) to a temporary PFM, runs `vips <operation> in out <arguments…>`,
    /// with `files` written next to it first (e.g. a matrix), and reads the result back.
    static func run(_ operation: String, on image: Image, arguments: [String],
                    files: [String: String] = [:]) throws -> Image {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-vips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let input = dir.appendingPathComponent("in.pfm"), output = dir.appendingPathComponent("out.pfm")
        try PFM.encode(image).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [operation, input.path, output.path] + arguments
        process.currentDirectoryURL = dir
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw PFM.Failure("vips \(operation) failed: \(message)")
        }
        return try PFM.decode(Data(contentsOf: output))
    }

    /// vips' matrix file: "width height scale offset", then the rows.
    static func matrixFile(_ values: [Double], size: Int, scale: Double, offset: Double) -> String {
        var lines = ["\(size) \(size) \(scale) \(offset)"]
        for row in 0..<size {
            lines.append(values[row * size..<(row + 1) * size].map { "\($0)" }.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Portable float map, 3 channels, little-endian floats: the minimal reader and writer the
/// vips comparisons need.
enum PFM {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The RGB of an opaque image.
    static func encode(_ image: Image) -> Data {
        var data = Data("PF\n\(image.width) \(image.height)\n-1.0\n".utf8)
        var floats = [Float]()
        floats.reserveCapacity(image.pixels.count * 3)
        for p in image.pixels { floats += [p[0], p[1], p[2]] }
        floats.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// An opaque image; accepts the `#` comment lines vips writes into the header.
    static func decode(_ data: Data) throws -> Image {
        var fields = [String](), index = data.startIndex
        while fields.count < 4 {
            guard let newline = data[index...].firstIndex(of: 0x0A) else { throw Failure("truncated PFM header") }
            let line = String(decoding: data[index..<newline], as: UTF8.self)
            index = data.index(after: newline)
            if line.hasPrefix("#") { continue }
            fields += line.split(separator: " ").map(String.init)
        }
        guard fields[0] == "PF", let w = Int(fields[1]), let h = Int(fields[2]), let scale = Double(fields[3]),
              scale < 0 else { throw Failure("expected a little-endian colour PFM, got \(fields)") }
        let body = data[index...]
        guard body.count >= w * h * 12 else { throw Failure("PFM body too short") }
        let floats = body.withUnsafeBytes { raw in (0..<w * h * 3).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
        return Image(width: w, height: h) { x, y in
            let i = (y * w + x) * 3
            return Pixel(floats[i], floats[i + 1], floats[i + 2], 1)
        }
    }
}
