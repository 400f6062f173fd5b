/* libtiff opened with dlopen on first use; see tiff_library.h. */
#include "tiff_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libtiff.so.6", "libtiff6");
dr_tiff_functions dr_tiff;

DR_SHARED_LIBRARY_LOADER(load, library, dr_tiff, DR_TIFF_FUNCTIONS)

int dr_tiff_load(char *message, size_t capacity) {
    return dr_shared_library_load(&library, load, "TIFF needs libtiff: ", message, capacity);
}
