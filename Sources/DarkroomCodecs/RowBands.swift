import Dispatch
import DarkroomCore

/// Splits an image's rows into bands and converts them concurrently.
///
/// Pixel conversion is on the hot path of every job (25 M pixels for a 5000×5000 photo), and
/// each band touches a disjoint range of rows, so bands can run on all cores without locking.
enum RowBands {
    /// Rows per band: large enough to amortise dispatch, small enough to balance the cores.
    static let rowsPerBand = 32
    /// Below this many pixels the work is done on the calling thread.
    static let parallelThreshold = 1 << 16

    static func forEach(width: Int, height: Int, _ body: (Range<Int>) -> Void) {
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        if bands <= 1 || width * height < parallelThreshold {
            if height > 0 { body(0..<height) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let start = band * rowsPerBand
                shared.value(start..<min(start + rowsPerBand, height))
            }
        }
    }
}

/// Carries pointers and closures into `concurrentPerform`. Safe here because each band reads
/// shared input and writes only its own rows.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
