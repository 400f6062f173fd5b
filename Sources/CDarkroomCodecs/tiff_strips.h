#ifndef DARKROOM_TIFF_STRIPS_H
#define DARKROOM_TIFF_STRIPS_H

#include "tiff_io.h"

/* A thread with a libtiff handle of its own on a TIFF read through its descriptor, decoding one
 * strip at a time into its buffer while the caller decodes another (tiff_strips.c). */
typedef struct dr_tiff_prefetch dr_tiff_prefetch;

/* Opens the helper on the file read through `io` (its descriptor, not `io` itself), with a
 * buffer of `strip_bytes`; NULL when the input is in memory or anything fails (the caller then
 * decodes every strip itself). */
dr_tiff_prefetch *dr_tiff_prefetch_open(const dr_tiff_io *io, tmsize_t strip_bytes);

/* The strip last asked for (being decoded or in the buffer), -1 before the first. */
long dr_tiff_prefetch_requested(dr_tiff_prefetch *p);

/* Asks for `strip`, once the one before is decoded (its buffer is then reused). */
void dr_tiff_prefetch_start(dr_tiff_prefetch *p, uint32_t strip);

/* Waits for the strip asked for: its buffer, the bytes decoded in *got (-1 when decoding
 * failed), and in *status the first error libtiff reported on the helper's handle (its text
 * copied into `message`). */
const unsigned char *dr_tiff_prefetch_wait(dr_tiff_prefetch *p, tmsize_t *got, dr_status *status,
                                           char *message, size_t capacity);

/* Stops the thread (after the strip it may be decoding) and frees everything; NULL is fine. */
void dr_tiff_prefetch_close(dr_tiff_prefetch *p);

#endif
