import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// cairo, Pango, librsvg (with GLib) and libpq are opened with dlopen only when a chain draws or
/// a cluster connects, libavif (with rav1e, SVT-AV1, dav1d…) only for a 10-bit AVIF output,
/// libjxl (with libhwy, which calibrates a timer when loaded, and Brotli) only for a JPEG XL,
/// libheif (with libde265, x265, libaom and dav1d, whose constructors run at load) only for a
/// HEIF or AVIF, libtiff (with LERC and JBIG) only for a TIFF (or a camera RAW's EXIF): a
/// process that only resizes maps none of them (each costs memory in
/// every process otherwise). Checked on the real binary, with glibc's loader telling which
/// files it maps (LD_DEBUG=files) and with the daemon's /proc/PID/maps.
final class LazyLibrariesEndToEndTests: XCTestCase {
    /// The libraries that must stay out of a process that does not draw.
    private let lazy = ["libcairo", "libpango", "librsvg", "libpq", "libglib-2.0", "libgobject", "libharfbuzz", "libfontconfig", "libxml2",
                        "libavif", "librav1e", "libSvtAv1Enc", "libgav1", "libjxl", "libhwy", "libbrotlienc",
                        "libheif", "libde265", "libx265", "libaom", "libdav1d", "libtiff", "libLerc", "libjbig"]

    /// `darkroom process` with LD_DEBUG=files: the files the loader mapped, and the output.
    private func process(_ chain: String, _ s: Scratch, output: String = "out.png", options: [String] = [])
        throws -> (status: Int32, mapped: [String], stderr: String) {
        s.makeFolder("in")
        s.writeInPlace("in/photo.png", try picture(width: 96, height: 64, format: .png))
        return try traced(try DaemonProcess.binaryPath(), ["process", "--chain", chain, s.path("in/photo.png"), "-o", s.path(output)] + options)
    }

    /// Runs `binary` with LD_DEBUG=files: its status, the files the loader mapped, its stderr.
    private func traced(_ binary: String, _ arguments: [String]) throws -> (status: Int32, mapped: [String], stderr: String) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        child.environment = environment
        let err = Pipe()
        child.standardError = err
        child.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try child.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        // "   1234:	file=libcairo.so.2 [0];  dynamically loaded by …"
        let mapped = stderr.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "file=") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != " " })
        }
        return (child.terminationStatus, mapped, stderr)
    }

    func testAResizeJobMapsNoDrawingLibraryNorLibpq() throws {
        let s = Scratch()
        let run = try process("resize width=48 | sharpen | sepia", s)
        XCTAssertEqual(run.status, 0, run.stderr.suffix(2000).description)
        XCTAssertTrue(run.mapped.contains { $0.hasPrefix("libc.so") }, "LD_DEBUG lists the mapped files: \(run.mapped)")
        for name in lazy {
            XCTAssertFalse(run.mapped.contains { $0.hasPrefix(name) }, "\(name) is mapped by a job that does not draw: \(run.mapped)")
        }
        let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("out.png")))
        XCTAssertEqual([info.width, info.height], [48, 32])
    }

    /// `darkroom` does not link the preview's HTTP server: FoundationNetworking brings libcurl
    /// and some thirty more libraries that every start would map. `darkroom-preview`, which
    /// serves the page, does map them (the check can fail).
    func testDarkroomMapsNoFoundationNetworkingNorLibcurl() throws {
        func mapped(_ binary: String, _ arguments: [String]) throws -> [String] {
            let run = try traced(binary, arguments)
            XCTAssertEqual(run.status, 0, run.stderr.suffix(2000).description)
            return run.mapped
        }
        let network = ["libFoundationNetworking", "libcurl", "libgnutls", "libnghttp2", "libssh2", "libldap", "libgssapi_krb5"]
        let binary = try DaemonProcess.binaryPath()
        for arguments in [["--version"], ["preview", "--help"]] {
            let files = try mapped(binary, arguments)
            XCTAssertTrue(files.contains { $0.hasPrefix("libc.so") }, "LD_DEBUG lists the mapped files: \(files)")
            for name in network {
                XCTAssertFalse(files.contains { $0.hasPrefix(name) }, "darkroom \(arguments.joined(separator: " ")) maps \(name): \(files)")
            }
        }
        let server = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("darkroom-preview").path
        let served = try mapped(server, ["--help"])
        XCTAssertTrue(served.contains { $0.hasPrefix("libcurl") }, "darkroom-preview maps libcurl: \(served)")
    }

    /// An 8-bit AVIF opens libheif and leaves libavif closed; a 10-bit one opens libavif and is
    /// 10-bit; reading the AVIF back opens libheif and libde265.
    func testOnlyATenBitAVIFOpensLibavif() throws {
        let s = Scratch()
        let eight = try process("resize width=48", s, output: "eight.avif")
        XCTAssertEqual(eight.status, 0, eight.stderr.suffix(2000).description)
        XCTAssertFalse(eight.mapped.contains { $0.hasPrefix("libavif") }, "\(eight.mapped)")
        XCTAssertTrue(eight.mapped.contains("libheif.so.1"), "\(eight.mapped)")
        let back = try traced(try DaemonProcess.binaryPath(), ["process", "--chain", "resize width=24", s.path("eight.avif"), "-o", s.path("back.png")])
        XCTAssertEqual(back.status, 0, back.stderr.suffix(2000).description)
        XCTAssertTrue(back.mapped.contains("libheif.so.1") && back.mapped.contains("libde265.so.0"), "\(back.mapped)")
        XCTAssertEqual(try ImageCodec.readInfo(try XCTUnwrap(s.read("back.png"))).width, 24)
        let ten = try process("resize width=48", s, output: "ten.avif", options: ["--bit-depth", "10"])
        XCTAssertEqual(ten.status, 0, ten.stderr.suffix(2000).description)
        XCTAssertTrue(ten.mapped.contains("libavif.so.15"), "\(ten.mapped)")
        XCTAssertEqual(try ImageCodec.readInfo(try XCTUnwrap(s.read("ten.avif"))).bitDepth, 10)
    }

    /// A JPEG XL output opens libjxl (and is a JPEG XL that reads back); a PNG one does not.
    func testOnlyAJPEGXLOpensLibjxl() throws {
        let s = Scratch()
        let png = try process("resize width=48", s)
        XCTAssertEqual(png.status, 0, png.stderr.suffix(2000).description)
        XCTAssertFalse(png.mapped.contains { $0.hasPrefix("libjxl") || $0.hasPrefix("libhwy") }, "\(png.mapped)")
        let jxl = try process("resize width=48", s, output: "out.jxl")
        XCTAssertEqual(jxl.status, 0, jxl.stderr.suffix(2000).description)
        XCTAssertTrue(jxl.mapped.contains("libjxl.so.0.7"), "\(jxl.mapped)")
        let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("out.jxl")))
        XCTAssertEqual([info.width, info.height], [48, 32])
    }

    /// A TIFF output opens libtiff (and is a TIFF that reads back); a PNG one does not.
    func testOnlyATIFFOpensLibtiff() throws {
        let s = Scratch()
        let png = try process("resize width=48", s)
        XCTAssertEqual(png.status, 0, png.stderr.suffix(2000).description)
        XCTAssertFalse(png.mapped.contains { $0.hasPrefix("libtiff") }, "\(png.mapped)")
        let tiff = try process("resize width=48", s, output: "out.tiff")
        XCTAssertEqual(tiff.status, 0, tiff.stderr.suffix(2000).description)
        XCTAssertTrue(tiff.mapped.contains("libtiff.so.6"), "\(tiff.mapped)")
        let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("out.tiff")))
        XCTAssertEqual([info.width, info.height], [48, 32])
    }

    /// A gradient opens cairo (and draws with it); text opens Pango too; neither opens libpq.
    func testADrawingJobOpensWhatItDrawsWithAndDraws() throws {
        let s = Scratch()
        let gradient = try process("linear_gradient", s)
        XCTAssertEqual(gradient.status, 0, gradient.stderr.suffix(2000).description)
        XCTAssertTrue(gradient.mapped.contains("libcairo.so.2"), "\(gradient.mapped)")
        XCTAssertFalse(gradient.mapped.contains { $0.hasPrefix("libpango") || $0.hasPrefix("librsvg") || $0.hasPrefix("libpq") },
                       "\(gradient.mapped)")
        // The default gradient: opaque black at the top, fading to nothing at the bottom (the
        // picture's blue is 0.4 everywhere).
        let image = try ImageCodec.decode(try XCTUnwrap(s.read("out.png"))).image
        for x in [0, 50, 95] {
            XCTAssertLessThan(image[x, 0][2], 0.05, "black at the top: \(image[x, 0])")
            XCTAssertGreaterThan(image[x, 63][2], 0.35, "the picture at the bottom: \(image[x, 63])")
        }

        // A logo at its natural size is composited in Swift: no cairo.
        let logo = Scratch()
        logo.writeInPlace("logo.png", try picture(width: 20, height: 10, format: .png))
        let overlay = try process("overlay_image image=\(logo.path("logo.png")) gravity=south_east", logo)
        XCTAssertEqual(overlay.status, 0, overlay.stderr.suffix(2000).description)
        for name in lazy { XCTAssertFalse(overlay.mapped.contains { $0.hasPrefix(name) }, "\(name) mapped: \(overlay.mapped)") }
        XCTAssertTrue(logo.exists("out.png"))

        let text = try process("draw_text text=Hello size=30", Scratch())
        XCTAssertEqual(text.status, 0, text.stderr.suffix(2000).description)
        XCTAssertTrue(text.mapped.contains("libpangocairo-1.0.so.0") && text.mapped.contains("libcairo.so.2"), "\(text.mapped)")
        XCTAssertFalse(text.mapped.contains { $0.hasPrefix("libpq") || $0.hasPrefix("librsvg") }, "\(text.mapped)")
    }

    /// The daemon, on a config that does not draw, after a job: none of them in its maps. The
    /// same daemon shape with a drawing chain has cairo mapped (the check can fail).
    func testADaemonThatDoesNotDrawMapsNone() throws {
        for draws in [false, true] {
            let s = Scratch()
            let step = draws ? "- linear_gradient: {}" : "- resize: { width: 24 }"
            s.writeConfig("""
                workers: 1
                watches:
                  - name: photos
                    path: \(s.path("inbox"))
                    settle_ms: 50
                    reports_dir: \(s.path("reports"))
                    done_dir: \(s.path("done"))
                    failed_dir: \(s.path("failed"))
                    outputs:
                      - path: \(s.path("out/{stem}.png"))
                        chain:
                          \(step)
                """)
            let daemon = try start(s)
            s.writeAndRename("inbox/a.png", try picture(width: 64, height: 48, format: .png))
            XCTAssertTrue(eventually { s.exists("reports/a.png.json") }, "log:\n\(tail(daemon))")
            XCTAssertEqual(s.report("reports/a.png.json")?["status"] as? String, "ok")
            // Read to the end by hand: /proc files say they are empty, and are read in pieces.
            let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(daemon.process.processIdentifier)/maps"))
            let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            try handle.close()
            let files = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first }
                .map { String($0.split(separator: "/").last ?? "") })
            if draws {
                XCTAssertTrue(files.contains("libcairo.so.2") || files.contains { $0.hasPrefix("libcairo.so.2.") }, "\(files.sorted())")
            } else {
                XCTAssertTrue(files.contains { $0.hasPrefix("libc.so") }, "\(files.sorted())")
                for name in lazy { XCTAssertFalse(files.contains { $0.hasPrefix(name) }, "\(name) in the maps of a daemon that does not draw") }
            }
            stop(daemon)
        }
    }

    /// With libcairo unreadable (an empty file bound over it, in a mount namespace of the test's
    /// own), a drawing chain is refused with the library and its Debian package named, a resize
    /// still works; with libpq unreadable, a cluster node stops at once saying so; with libpq
    /// replaced by a library that lacks its functions (zlib bound over it: what an older libpq
    /// than darkroom was built for looks like to dlsym), the node names the missing function.
    func testAMissingLibraryIsNamedWithItsPackage() throws {
        guard getuid() == 0 else { throw TestEnvironment.unavailable("root, to bind-mount over a library in a mount namespace of its own") }
        let s = Scratch()
        s.makeFolder("in")
        s.writeInPlace("in/photo.png", try picture(width: 32, height: 24, format: .png))
        let binary = try DaemonProcess.binaryPath()
        func hiding(_ soname: String, under replacement: String = "/dev/null", _ arguments: [String]) throws -> CommandResult {
            // Where the loader finds it ("	libcairo.so.2 (libc6,x86-64) => /lib/…/libcairo.so.2").
            let cache = try runProgram("/sbin/ldconfig", ["-p"]).stdout.split(separator: "\n")
            let line = try XCTUnwrap(cache.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }, "\(soname) installed")
            let file = URL(fileURLWithPath: String(line.split(separator: " ").last!)).resolvingSymlinksInPath().path
            let command = (["mount", "--bind", replacement, file, "&&", "exec", binary] + arguments)
                .map { $0 == "&&" ? $0 : "'\($0)'" }.joined(separator: " ")
            return try runProgram("/usr/bin/unshare", ["--mount", "--propagation", "private", "sh", "-c", command])
        }
        let drawing = try hiding("libcairo.so.2", ["process", "--chain", "linear_gradient", s.path("in/photo.png"), "-o", s.path("a.png")])
        XCTAssertNotEqual(drawing.status, 0)
        XCTAssertTrue(drawing.stderr.contains("linear_gradient: cannot load libcairo.so.2 (install the Debian package libcairo2)"), drawing.stderr)
        XCTAssertFalse(s.exists("a.png"))
        let plain = try hiding("libcairo.so.2", ["process", "--chain", "resize width=16", s.path("in/photo.png"), "-o", s.path("b.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(s.exists("b.png"))

        s.writeConfig("""
            cluster:
              database: "host=127.0.0.1 port=1 dbname=none"
              node: lonely
            watches:
              - name: photos
                path: \(s.path("inbox"))
                outputs:
                  - path: \(s.path("out/{stem}.png"))
                    chain:
                      - resize: { width: 24 }
            """)
        let node = try hiding("libpq.so.5", ["run", "--config", s.path("config.yaml")])
        XCTAssertEqual(node.status, 1, node.stderr)
        XCTAssertTrue(node.stderr.contains("cluster mode needs libpq: cannot load libpq.so.5 (install the Debian package libpq5)"), node.stderr)

        let zlib = try XCTUnwrap(try runProgram("/sbin/ldconfig", ["-p"]).stdout.split(separator: "\n")
            .first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("libz.so.1 ") }?.split(separator: " ").last.map(String.init))
        let old = try hiding("libpq.so.5", under: zlib, ["run", "--config", s.path("config.yaml")])
        XCTAssertEqual(old.status, 1, old.stderr)
        XCTAssertTrue(old.stderr.contains("cluster mode needs libpq: libpq.so.5 has no function PQ"), old.stderr)
        XCTAssertTrue(old.stderr.contains("(install a newer libpq5)"), old.stderr)
    }
}
