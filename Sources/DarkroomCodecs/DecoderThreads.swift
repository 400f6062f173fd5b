import CDarkroomCodecs
import DarkroomCore

/// The compute slots (``ComputeSlots/shared``) are the budget of the threads the C decoders
/// start beside their caller (libde265's workers; the helpers of libjxl's parallel stages, when it
/// decodes or encodes; the thread an animated GIF or WebP writer encodes a frame on), so a decode
/// shares the cores with the renders instead of adding threads on top of them. Registered once,
/// before the first decode, JPEG XL encode or animated encode.
///
/// Beyond the slots, a running job may have one decoder helper thread (a HEVC worker while no
/// slot is free, its own thread waiting on it; a TIFF's strip read-ahead) and one hashing
/// thread (``ContentDigest``, bound by the disk). docs/architecture.md states this allowance.
enum DecoderThreads {
    static let registered: Void = {
        dr_set_thread_budget({ wanted in Int32(ComputeSlots.shared.tryAcquire(upTo: Int(wanted))) },
                             { count in ComputeSlots.shared.release(Int(count)) })
    }()
}
