/*
 * libavif, opened on first use (avif_library.c): only 10-bit AVIF output needs it, and linking it
 * would map it and its ~20 libraries (rav1e, SVT-AV1, dav1d, libgav1, libyuv, abseil; about 2 MiB)
 * into every darkroom process. Its headers (libavif-dev) give the types; the functions are
 * called through this table, as CPostgres calls libpq.
 *
 * To call another libavif function: add `X(avifFunction)` to DR_AVIF_FUNCTIONS and call it as
 * `lib->avifFunction(…)`.
 */
#ifndef DARKROOM_AVIF_LIBRARY_H
#define DARKROOM_AVIF_LIBRARY_H

#include <stddef.h>

#include "darkroom_shared_library.h"

#include <avif/avif.h>

#define DR_AVIF_FUNCTIONS(X)                                                                      \
    X(avifCodecName) X(avifImageCreate) X(avifImageDestroy) X(avifImageSetProfileICC)             \
    X(avifImageSetMetadataExif) X(avifImageSetMetadataXMP) X(avifRGBImageSetDefaults)             \
    X(avifImageRGBToYUV) X(avifResultToString) X(avifEncoderCreate) X(avifEncoderDestroy)         \
    X(avifEncoderSetCodecSpecificOption) X(avifEncoderWrite) X(avifRWDataFree)

DR_SHARED_LIBRARY_TABLE(dr_avif_functions, DR_AVIF_FUNCTIONS);

/* The table, loaded once; NULL with the reason (naming the Debian package) in `message`. */
const dr_avif_functions *dr_avif_load(char *message, size_t capacity);

#endif
