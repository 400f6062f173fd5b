#ifndef DARKROOM_TIFF_IO_H
#define DARKROOM_TIFF_IO_H

#include "internal.h"

#include <tiffio.h>

/* A TIFF's bytes in memory (reading) or a growing buffer (writing), and where the first error
 * libtiff reported goes. */
typedef struct {
    const unsigned char *bytes; /* reading: the input, where the current call sees it */
    size_t length;
    dr_buffer *out;             /* writing */
    size_t position;
    dr_status status;           /* the first error libtiff reported */
    char *message;
    size_t capacity;
} dr_tiff_io;

/* Opens `io` with libtiff ("rm" to read, "w" to write) with handlers that record the first error
 * into `io` and print nothing; NULL with io->status set when libtiff refuses it. */
TIFF *dr_tiff_open(dr_tiff_io *io, const char *mode);

/* Points later errors at this call's message buffer. */
void dr_tiff_rearm(dr_tiff_io *io, char *message, size_t capacity);

#endif
