/* libavif opened with dlopen on first use; see avif_library.h. */
#include "avif_library.h"

#include "darkroom_shared_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libavif.so.15", "libavif15");
static dr_avif_functions functions;

static void load(void) {
    void *handle = dr_shared_library_open(&library);
    if (!handle) return;
#define DR_AVIF_RESOLVE(name) DR_LIBRARY_RESOLVE(&library, handle, functions, name)
    DR_AVIF_FUNCTIONS(DR_AVIF_RESOLVE)
#undef DR_AVIF_RESOLVE
}

const dr_avif_functions *dr_avif_load(char *message, size_t capacity) {
    return dr_shared_library_load(&library, load, "10-bit AVIF needs libavif: ", message, capacity) ? NULL : &functions;
}
