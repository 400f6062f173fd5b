import DarkroomDaemon
import Dispatch
import Foundation
import Glibc

/// The progress line `darkroom process` keeps at the bottom of a terminal: files done of total,
/// rate, time left, the files being processed. Drawn on stderr only when stderr is a terminal
/// (a script or a log file gets the summary lines alone). Summary lines go to stdout through
/// ``print(_:)``, which lifts the progress line out of the way first, so the two never mix.
///
/// Workers call it concurrently; all state and every write sit behind one lock.
final class ProcessProgress: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var current: [Int: String] = [:]
        var lastDraw: UInt64 = 0
        var drawn = false
    }

    private let total: Int
    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private let state = Locked(State())

    init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.enabled = enabled
    }

    func started(_ index: Int, name: String) {
        state.withLock { s in
            s.current[index] = name
            draw(&s, force: false)
        }
    }

    /// Prints a file's line, on stdout when it succeeded and on stderr (as `vips` and `convert`
    /// print errors) when it failed, and counts the file as done.
    func finished(_ index: Int, failed: Bool, line: String) {
        state.withLock { s in
            erase(&s)
            if failed { printError(line) } else { Swift.print(line) }
            fflush(nil)  // all C streams: Swift's print writes through C's stdout
            s.current[index] = nil
            s.done += 1
            if failed { s.failed += 1 }
            draw(&s, force: true)
        }
    }

    /// Redraws (the rate and time left move even while no file finishes).
    func tick() { state.withLock { draw(&$0, force: false) } }

    /// Leaves the final count on its own line.
    func finish() {
        state.withLock { s in
            guard enabled, total > 0 else { return }
            erase(&s)
            let seconds = elapsed
            let failures = s.failed > 0 ? ", \(s.failed) failed" : ""
            write("\(s.done)/\(total) files in \(HumanFormat.duration(seconds))\(failures)\n")
        }
    }

    private var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    private func draw(_ s: inout State, force: Bool) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        // At most ten times a second: a terminal redrawing faster only flickers.
        guard force || now - s.lastDraw >= 100_000_000 else { return }
        s.lastDraw = now
        var text = "[\(s.done)/\(total)]"
        let seconds = elapsed
        if s.done > 0 && seconds > 0 {
            let rate = Double(s.done) / seconds
            text += String(format: " %.1f files/s", rate)
            text += ", ETA " + HumanFormat.duration(Double(total - s.done) / rate)
        }
        if s.failed > 0 { text += ", \(s.failed) failed" }
        let names = s.current.sorted { $0.key < $1.key }.map(\.value)
        if !names.isEmpty { text += " — " + names.joined(separator: ", ") }
        let width = Self.terminalWidth()
        if text.count >= width { text = String(text.prefix(max(1, width - 2))) + "…" }
        write("\r\u{1B}[K" + text)
        s.drawn = true
    }

    private func erase(_ s: inout State) {
        guard enabled, s.drawn else { return }
        write("\r\u{1B}[K")
        s.drawn = false
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
