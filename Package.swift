// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The compiler flags (include paths) of pkg-config packages, without their libraries: for
/// libraries opened with dlopen, which must not be linked (a system-library target's
/// `pkgConfig` would link them). Empty when pkg-config fails; the compiler then names the header
/// it cannot find (scripts/install-deps.sh installs pkg-config and the -dev packages).
func includeFlags(pkgConfig packages: String...) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags"] + packages
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return [] }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
}

// Layers depend one way: darkroom (CLI) → Daemon → Config, Codecs → Core; darkroom-preview →
// Preview → Daemon.
// System C libraries enter through small C targets so that longjmp never crosses Swift.
let package = Package(
    name: "darkroom",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "darkroom", targets: ["darkroom"]),
        .executable(name: "darkroom-preview", targets: ["darkroom-preview"]),
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The preview page's HTTP server (`darkroom preview`): small, on plain sockets, no SwiftNIO.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // C shims over system libraries: libpng, libjpeg(-turbo), Little CMS, libexif, libdeflate,
        // libwebp (with its demux and mux parts), giflib (GIF in), cgif and libimagequant (GIF out), libraw (camera RAW in); libtiff, libheif with libde265 and dav1d (HEIF and AVIF; HEVC and AV1 decoded on the compute slots), libavif (10-bit AVIF) and libjxl (JPEG XL) are opened with
        // dlopen on first use, their headers only at build time (Debian libpng-dev, libjpeg-dev,
        // liblcms2-dev, libexif-dev, libtiff-dev, libwebp-dev, libgif-dev, libcgif-dev, libimagequant-dev, libjxl-dev, libraw-dev, libheif-dev, libde265-dev, libavif-dev;
        // scripts/install-deps.sh installs them).
        // Opening a library with dlopen on first use, for the libraries only some jobs need.
        .target(name: "CSharedLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "CDarkroomCodecs",
            // CDarkroomDraw renders PDF and SVG inputs (poppler-glib, librsvg, opened with dlopen).
            dependencies: ["CSharedLibrary", "CDarkroomDraw"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("jpeg"), .linkedLibrary("lcms2"), .linkedLibrary("exif"),
                             .linkedLibrary("deflate"), .linkedLibrary("webp"), .linkedLibrary("webpdemux"),
                             .linkedLibrary("webpmux"),
                             .linkedLibrary("gif"), .linkedLibrary("cgif"), .linkedLibrary("imagequant"),
                             .linkedLibrary("raw_r")]
        ),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CInotifyTools", providers: [.apt(["libinotifytools0-dev"])]),
        .systemLibrary(name: "CSHA", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // PostgreSQL's client library, for cluster mode (`cluster:` in the config), opened with
        // dlopen when a cluster connects, so a daemon without `cluster:` never maps it (Debian
        // libpq-dev for the header, libpq5 at run time).
        .target(name: "CPostgres", dependencies: ["CSharedLibrary"]),
        // Leases, extended attributes, rename without replacing: glibc, behind _GNU_SOURCE.
        .systemLibrary(name: "CLinuxFiles"),
        // Drawing: cairo (paths, gradients, operators), Pango over cairo (text), librsvg (SVG)
        // (Debian libcairo2-dev, libpango1.0-dev, librsvg2-dev). Swift reaches them through the
        // plain-C shims of CDarkroomDraw, which open them with dlopen when a chain first draws
        // (Sources/CDarkroomDraw/libraries.h): nothing links them, so a process that never draws
        // maps none of them. Their headers only, hence include flags and no pkgConfig.
        .systemLibrary(name: "CCairo"),
        .target(name: "CDarkroomDraw", dependencies: ["CSharedLibrary"],
                cSettings: [.unsafeFlags(includeFlags(pkgConfig: "cairo", "pangocairo", "librsvg-2.0", "poppler-glib"))]),
        // Integer inner loops of the filter core (SIMD intrinsics); no library.
        .target(name: "CDarkroomKernels"),

        // The filter core: images, tiles, filters, registry, chain compiler. No files, no YAML.
        .target(name: "DarkroomCore", dependencies: ["CDarkroomKernels"]),
        .target(name: "DarkroomCodecs", dependencies: ["DarkroomCore", "CDarkroomCodecs"]),
        // The filters that draw and composite, on cairo, Pango and librsvg; and the shipped registry.
        .target(name: "DarkroomDrawing", dependencies: ["DarkroomCore", "CDarkroomDraw", "CCairo"]),
        // The config speaks the codecs' vocabulary (formats, chroma, metadata, colour options).
        .target(name: "DarkroomConfig", dependencies: ["DarkroomCore", "DarkroomCodecs", "CYAML"]),
        .target(
            name: "DarkroomDaemon",
            dependencies: [
                "DarkroomCore", "DarkroomCodecs", "DarkroomConfig", "CInotifyTools", "CSHA", "CLinuxFiles", "CPostgres",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `darkroom preview`: the page that authors a chain by looking, served on loopback.
        .target(
            name: "DarkroomPreview",
            dependencies: [
                "DarkroomCore", "DarkroomCodecs", "DarkroomConfig", "DarkroomDrawing", "DarkroomDaemon",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // `darkroom preview`'s options, parsed by both executables below; no server in it.
        .target(
            name: "DarkroomPreviewOptions",
            dependencies: ["DarkroomCodecs", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The preview server is an executable of its own, which `darkroom preview` execs from
        // the folder of the running `darkroom`: FlyingFox imports FoundationNetworking, which
        // links libcurl and ~30 more shared libraries (gnutls, krb5, ldap, ssh2, nghttp2…) that
        // the loader maps and relocates at every start (about 12 ms of CPU), and --as-needed or
        // --gc-sections do not drop them. So `darkroom` (daemon, `process`) must not depend on
        // DarkroomPreview or FlyingFox (LazyLibrariesEndToEndTests checks its mapped files).
        .executableTarget(
            name: "darkroom",
            dependencies: [
                "DarkroomCore", "DarkroomCodecs", "DarkroomConfig", "DarkroomDrawing", "DarkroomDaemon", "DarkroomPreviewOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "darkroom-preview",
            dependencies: [
                "DarkroomPreview", "DarkroomPreviewOptions", "DarkroomDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Helpers every test target shares (temporary folders, reference tools, PSNR).
        .target(name: "DarkroomTestSupport", dependencies: ["DarkroomCore"], path: "Tests/DarkroomTestSupport"),
        // The conformance suite in DarkroomCoreTests holds every shipped filter to the contract,
        // the drawing ones included, so it sees DarkroomDrawing.
        .testTarget(name: "DarkroomCoreTests", dependencies: ["DarkroomCore", "DarkroomDrawing", "DarkroomTestSupport"]),
        .testTarget(
            name: "DarkroomCodecsTests", dependencies: ["DarkroomCodecs", "DarkroomCore", "DarkroomTestSupport"],
            exclude: ["Fixtures"]  // read through #filePath, not bundled
        ),
        // glibc's mallinfo2, for tests that hold a component's own byte count to the heap's.
        .systemLibrary(name: "CMalloc", path: "Tests/CMalloc"),
        .testTarget(name: "DarkroomDrawingTests", dependencies: ["DarkroomDrawing", "DarkroomCore", "DarkroomCodecs", "DarkroomTestSupport", "CMalloc"]),
        .testTarget(name: "DarkroomConfigTests", dependencies: ["DarkroomConfig", "DarkroomCodecs", "DarkroomCore", "DarkroomDrawing", "DarkroomTestSupport"]),
        .testTarget(name: "DarkroomDaemonTests", dependencies: ["DarkroomDaemon", "DarkroomConfig", "DarkroomCodecs", "DarkroomCore", "DarkroomDrawing", "DarkroomTestSupport"]),
        // Depends on the executables so that `swift test` builds the `darkroom` and
        // `darkroom-preview` binaries it runs.
        .testTarget(name: "EndToEndTests", dependencies: ["darkroom", "darkroom-preview", "DarkroomCodecs", "DarkroomCore", "DarkroomTestSupport"],
                    exclude: ["Browser"]),  // the Selenium scripts, run by the browser tests
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer harness (`make fuzz`, docs/fuzzing.md), declared only when DARKROOM_FUZZ is set:
// libFuzzer brings its own main, and it is built with -sanitize=fuzzer in a build folder of its
// own (.build-fuzz), so a plain `swift build` never sees it.
if ProcessInfo.processInfo.environment["DARKROOM_FUZZ"] != nil {
    package.targets += [
        // libFuzzer's driver, called from the harness's own main (SwiftPM makes every executable's module its entry point).
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(name: "darkroom-fuzz", dependencies: ["DarkroomCodecs", "CLibFuzzer"]),
    ]
}
