#ifndef DARKROOM_TIFF_IO_H
#define DARKROOM_TIFF_IO_H

#include "internal.h"

#include "tiff_library.h"

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

/* Writes `n` bytes at `offset` of the file being written (beside libtiff, which appends its
 * strips and directory at the end); 0 when they could not be written. */
int dr_tiff_write_at(dr_tiff_io *io, uint64_t offset, const void *data, size_t n);

/* The EXIF of the TIFF read through `io` (tiff_exif.c): its picture's IFD0 tags and EXIF, GPS
 * and interoperability IFDs as an EXIF block (a TIFF stream, malloc'd into *out); 0 when the
 * file holds none. */
int dr_tiff_exif_collect(const dr_tiff_io *io, unsigned char **out, size_t *length);

/* Writes the EXIF block `exif` into the TIFF being written, before its first row: IFD0's text
 * tags into the directory, the EXIF and GPS IFDs behind the header with EXIFIFD and GPSIFD
 * pointing at them. An unreadable block is left out. */
dr_status dr_tiff_exif_store(TIFF *tif, dr_tiff_io *io, const unsigned char *exif, size_t length);

#endif
