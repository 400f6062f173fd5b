/* libjxl opened with dlopen on first use; see jxl_library.h. */
#include "jxl_library.h"

#include "darkroom_shared_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libjxl.so.0.7", "libjxl0.7");
dr_jxl_functions dr_jxl;

DR_SHARED_LIBRARY_LOADER(load, library, dr_jxl, DR_JXL_FUNCTIONS)

const dr_jxl_functions *dr_jxl_load(char *message, size_t capacity) {
    return dr_shared_library_load(&library, load, "JPEG XL needs libjxl: ", message, capacity) ? NULL : &dr_jxl;
}
