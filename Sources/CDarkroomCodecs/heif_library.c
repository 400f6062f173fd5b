/* libheif, libde265 and dav1d opened with dlopen on first use; see heif_library.h. */
#include "heif_library.h"

#include "darkroom_shared_library.h"

static dr_shared_library heif_library = DR_SHARED_LIBRARY("libheif.so.1", "libheif1");
static dr_shared_library de265_library = DR_SHARED_LIBRARY("libde265.so.0", "libde265-0");
static dr_shared_library dav1d_library = DR_SHARED_LIBRARY("libdav1d.so.6", "libdav1d6");
dr_heif_functions dr_heif;
dr_de265_functions dr_de265;
dr_dav1d_functions dr_dav1d;

DR_SHARED_LIBRARY_LOADER(load_heif, heif_library, dr_heif, DR_HEIF_FUNCTIONS)
DR_SHARED_LIBRARY_LOADER(load_de265, de265_library, dr_de265, DR_DE265_FUNCTIONS)
DR_SHARED_LIBRARY_LOADER(load_dav1d, dav1d_library, dr_dav1d, DR_DAV1D_FUNCTIONS)

int dr_heif_load(char *message, size_t capacity) {
    if (dr_shared_library_load(&heif_library, load_heif, "HEIF and AVIF need libheif: ", message, capacity)) return -1;
    if (dr_shared_library_load(&de265_library, load_de265, "HEIF needs libde265: ", message, capacity)) return -1;
    return dr_shared_library_load(&dav1d_library, load_dav1d, "AVIF needs dav1d: ", message, capacity);
}
