/*
 * libraw handles that can give back the raw samples once they are developed. libraw keeps the
 * unpacked sensor data (2 bytes a photosite: 48 MB for 24 MP) until the handle is closed, beside
 * the developed image and the 8 or 16-bit copy darkroom reads rows from; dropping it before that
 * copy is made lowers a decode's peak by its size. libraw's allocator tracks its blocks and frees
 * them again when the handle closes, so the block is given back through libraw's own `free`
 * (protected), hence a subclass; everything else goes through libraw's C API as before.
 */
#include "raw_handle.h"

#include <libraw/libraw.h>
#include <new>

namespace {
class Handle : public LibRaw {
  public:
    explicit Handle(unsigned flags) : LibRaw(flags) {}

    void release_raw_samples() {
        libraw_rawdata_t &raw = imgdata.rawdata;
        /* Some legacy decoders unpack straight into the working image: that block is not spare. */
        if (raw.raw_alloc == nullptr || raw.raw_alloc == static_cast<void *>(imgdata.image)) return;
        free(raw.raw_alloc);
        raw.raw_alloc = nullptr;
        raw.raw_image = nullptr;
        raw.color3_image = nullptr;
        raw.color4_image = nullptr;
        raw.float_image = nullptr;
        raw.float3_image = nullptr;
        raw.float4_image = nullptr;
    }
};
} // namespace

extern "C" libraw_data_t *dr_raw_handle_new(unsigned flags) {
    Handle *handle = new (std::nothrow) Handle(flags);
    return handle == nullptr ? nullptr : &handle->imgdata; /* libraw_close deletes it (virtual destructor) */
}

extern "C" void dr_raw_handle_release_raw_samples(libraw_data_t *lr) {
    static_cast<Handle *>(static_cast<LibRaw *>(lr->parent_class))->release_raw_samples();
}
