/*
 * libjxl, opened on first use (jxl_library.c): linked, it and libhwy and Brotli would be mapped
 * into every darkroom process, and libhwy calibrates its timer when it is loaded (about 7 ms of
 * CPU before main on this machine's kind), for jobs that never see a JPEG XL. Its headers
 * (libjxl-dev) give the types; the functions are called through `dr_jxl`, filled by dr_jxl_load,
 * which every entry point of jxl.c and jxl_write.c calls first.
 *
 * To call another libjxl function: add `X(JxlFunction)` to DR_JXL_FUNCTIONS and call it as
 * `dr_jxl.JxlFunction(…)`.
 */
#ifndef DARKROOM_JXL_LIBRARY_H
#define DARKROOM_JXL_LIBRARY_H

#include <stddef.h>

#include "darkroom_shared_library.h"

#include <jxl/decode.h>
#include <jxl/encode.h>

#define DR_JXL_FUNCTIONS(X) \
    X(JxlColorEncodingSetToSRGB) X(JxlDecoderCreate) X(JxlDecoderDestroy) \
    X(JxlDecoderGetBasicInfo) X(JxlDecoderGetBoxType) X(JxlDecoderGetColorAsEncodedProfile) \
    X(JxlDecoderGetColorAsICCProfile) X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderImageOutBufferSize) X(JxlDecoderProcessInput) X(JxlDecoderReleaseBoxBuffer) \
    X(JxlDecoderSetBoxBuffer) X(JxlDecoderSetDecompressBoxes) X(JxlDecoderSetImageOutBuffer) \
    X(JxlDecoderSetInput) X(JxlDecoderSetKeepOrientation) X(JxlDecoderSetParallelRunner) \
    X(JxlDecoderSetUnpremultiplyAlpha) X(JxlDecoderSubscribeEvents) X(JxlEncoderAddBox) \
    X(JxlEncoderAddImageFrame) X(JxlEncoderAddJPEGFrame) X(JxlEncoderCloseBoxes) \
    X(JxlEncoderCloseInput) X(JxlEncoderCreate) X(JxlEncoderDestroy) \
    X(JxlEncoderFrameSettingsCreate) X(JxlEncoderFrameSettingsSetOption) X(JxlEncoderGetError) \
    X(JxlEncoderInitBasicInfo) X(JxlEncoderProcessOutput) X(JxlEncoderSetBasicInfo) \
    X(JxlEncoderSetColorEncoding) X(JxlEncoderSetFrameDistance) X(JxlEncoderSetFrameLossless) \
    X(JxlEncoderSetICCProfile) X(JxlEncoderSetParallelRunner) X(JxlEncoderStoreJPEGMetadata) \
    X(JxlEncoderUseBoxes) X(JxlEncoderUseContainer) X(JxlSignatureCheck)

DR_SHARED_LIBRARY_TABLE(dr_jxl_functions, DR_JXL_FUNCTIONS);

/* libjxl's functions; usable once dr_jxl_load has returned non-NULL. */
extern dr_jxl_functions dr_jxl;

/* Loads the table once; NULL with the reason (naming the Debian package) in `message`. */
const dr_jxl_functions *dr_jxl_load(char *message, size_t capacity);

#endif
