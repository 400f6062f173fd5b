/*
 * libtiff, opened on first use (tiff_library.c): linked, it and the codecs it links (LERC, JBIG,
 * zstd, xz) would be mapped into every darkroom process, about 2.8 ms of CPU before main on this
 * machine's kind, for jobs that never see a TIFF. Its headers (libtiff-dev) give the types; the
 * functions are called through `dr_tiff`, filled by dr_tiff_load, which dr_tiff_open (the one
 * place a TIFF is opened, to read, to write or for a camera RAW's EXIF) calls first.
 *
 * To call another libtiff function: add `X(TIFFFunction)` to DR_TIFF_FUNCTIONS and call it as
 * `dr_tiff.TIFFFunction(…)`.
 */
#ifndef DARKROOM_TIFF_LIBRARY_H
#define DARKROOM_TIFF_LIBRARY_H

#include <stddef.h>

#include "darkroom_shared_library.h"

#include <tiffio.h>

#define DR_TIFF_FUNCTIONS(X) \
    X(TIFFCleanup) X(TIFFClientOpenExt) X(TIFFClose) X(TIFFComputeTile) X(TIFFDefaultStripSize) \
    X(TIFFGetField) X(TIFFGetFieldDefaulted) X(TIFFIsBigEndian) X(TIFFIsTiled) \
    X(TIFFNumberOfDirectories) X(TIFFNumberOfStrips) X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFRGBAImageBegin) \
    X(TIFFRGBAImageEnd) X(TIFFRGBAImageGet) X(TIFFRGBAImageOK) X(TIFFReadEncodedStrip) \
    X(TIFFReadEncodedTile) X(TIFFReadScanline) X(TIFFScanlineSize) X(TIFFSetErrorHandler) \
    X(TIFFSetField) X(TIFFSetWarningHandler) X(TIFFStripSize) X(TIFFTileSize) X(TIFFWriteDirectory) \
    X(TIFFWriteEncodedTile) X(TIFFWriteRawStrip) X(TIFFWriteScanline)

DR_SHARED_LIBRARY_TABLE(dr_tiff_functions, DR_TIFF_FUNCTIONS);

/* libtiff's functions; usable once dr_tiff_load has returned 0. */
extern dr_tiff_functions dr_tiff;

/* Loads the table once; 0, or -1 with the reason (naming the Debian package) in `message`. */
int dr_tiff_load(char *message, size_t capacity);

#endif
