#ifndef DARKROOM_TIFF_IO_H
#define DARKROOM_TIFF_IO_H

#include "internal.h"

#include <tiffio.h>

/* Where a written TIFF goes: fixed-size chunks, so that the finished file can be handed over
 * chunk by chunk, each freed once copied (the file is never held twice), and a seek back
 * (libtiff rewrites the header's directory offset at the end) costs no copy. */
#define DR_TIFF_CHUNK ((size_t)1 << 20)
typedef struct {
    unsigned char **chunks;
    size_t count;  /* chunks allocated */
    size_t length; /* bytes of file: the furthest byte written */
} dr_tiff_chunks;

/* Frees every chunk. */
void dr_tiff_chunks_free(dr_tiff_chunks *chunks);

/* Copies the file into `into` (chunks->length bytes), freeing each chunk once copied. */
void dr_tiff_chunks_take(dr_tiff_chunks *chunks, unsigned char *into);

/* A TIFF's bytes: in memory or read through a descriptor with pread (reading), or chunks or a
 * descriptor written with pwrite (writing); and where the first error libtiff reported goes. */
typedef struct {
    const unsigned char *bytes; /* reading from memory: the input, where the current call sees it */
    size_t length;
    int file;                   /* through `fd` (pread, pwrite) instead of `bytes` or the chunks */
    int fd;
    dr_tiff_chunks *out;        /* writing (set in both cases): out->length is the file's length */
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
