import CDarkroomDraw
import DarkroomCore

/// The C libraries a drawing filter draws with. Nothing links them: they are opened with dlopen
/// the first time a filter that needs them is made (once per process), so a process whose
/// chains never draw maps none of them, nor the ~100 libraries they bring (GLib, HarfBuzz,
/// fontconfig, libxml2…), about 11 MiB of memory. See Sources/CDarkroomDraw/libraries.h.
///
/// Every drawing filter's `init(parameters:)` calls ``require(_:)`` for what it will draw with
/// (a colour `blend`, or an image overlaid at its natural size, needs none: Swift composites
/// them), so a missing library fails the config (at the filter's line) with a message naming
/// the library and its Debian package, never a job halfway. A new drawing filter adds that
/// call; the shims load on their own too (and fail, never crash), but with no config line.
struct DrawingLibraries: OptionSet, Sendable {
    let rawValue: Int32

    /// cairo: shapes, clips, gradients, scaled images.
    static let cairo = DrawingLibraries(rawValue: Int32(DR_NEEDS_CAIRO))
    /// Pango (with cairo and GLib): text.
    static let pango = DrawingLibraries(rawValue: Int32(DR_NEEDS_PANGO))
    /// librsvg (with cairo and GLib): SVG documents.
    static let rsvg = DrawingLibraries(rawValue: Int32(DR_NEEDS_RSVG))

    /// Loads `libraries` (at once if they are already loaded), or throws why they cannot load.
    static func require(_ libraries: DrawingLibraries) throws(ParameterError) {
        var message = [CChar](repeating: 0, count: 512)
        guard dr_draw_load(libraries.rawValue, &message, message.count) == 0 else {
            throw ParameterError(String(cMessage: message))
        }
    }
}
