/* libavif opened with dlopen on first use; see avif_library.h. */
#include "avif_library.h"

#include "darkroom_shared_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libavif.so.15", "libavif15");
static dr_avif_functions functions;

DR_SHARED_LIBRARY_LOADER(load, library, functions, DR_AVIF_FUNCTIONS)

const dr_avif_functions *dr_avif_load(char *message, size_t capacity) {
    return dr_shared_library_load(&library, load, "10-bit AVIF needs libavif: ", message, capacity) ? NULL : &functions;
}
