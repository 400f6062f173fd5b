/*
 * libtiff's plumbing shared by the TIFF reader and writer: memory streams as client procs, and
 * error and warning handlers that never print. libtiff reports errors through handlers and
 * return values (no longjmp); its default handlers print to stderr, so every TIFF is opened with
 * handlers of its own (TIFFOpenOptions, libtiff 4.5) and the process-wide ones are silenced too,
 * for the few messages libtiff emits before a handle exists.
 */
#include "tiff_io.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

/* Maps libtiff's message text to a status; libtiff has no error codes. */
static dr_status classify(const char *text, int writing) {
    if (writing) return DR_ENCODE_FAILED;
    if (strstr(text, "Read error") != NULL || strstr(text, "EOF") != NULL || strstr(text, "end of file") != NULL ||
        strstr(text, "Not enough data") != NULL || strstr(text, "past end") != NULL)
        return DR_TRUNCATED;
    if (strstr(text, "Memory allocation") != NULL || strstr(text, "Out of memory") != NULL ||
        strstr(text, "Maximum") != NULL || strstr(text, "too large") != NULL)
        return DR_TOO_LARGE;
    if (strstr(text, "not implemented") != NULL || strstr(text, "not supported") != NULL ||
        strstr(text, "Sorry") != NULL || strstr(text, "unsupported") != NULL)
        return DR_UNSUPPORTED;
    return DR_CORRUPT;
}

static int on_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    (void)module;
    dr_tiff_io *io = user;
    if (io != NULL && io->status == DR_OK) {
        char text[400];
        vsnprintf(text, sizeof text, format, args);
        io->status = classify(text, io->out != NULL);
        dr_set_message(io->message, io->capacity, "TIFF: %s", text);
    }
    return 1; /* handled: the process-wide handler is not called */
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    (void)user;
    (void)module;
    (void)format;
    (void)args;
    return 1; /* unknown tags and the like: the pixels are right, nothing to report */
}

static pthread_once_t silence_once = PTHREAD_ONCE_INIT;

static void silence_globals(void) {
    dr_tiff.TIFFSetErrorHandler(NULL);
    dr_tiff.TIFFSetWarningHandler(NULL);
}

static tmsize_t read_proc(thandle_t handle, void *into, tmsize_t size) {
    dr_tiff_io *io = handle;
    if (size <= 0 || io->position >= io->length) return 0;
    size_t n = (size_t)size < io->length - io->position ? (size_t)size : io->length - io->position;
    if (!io->file) {
        if (io->bytes == NULL) return 0;
        memcpy(into, io->bytes + io->position, n);
        io->position += n;
        return (tmsize_t)n;
    }
    /* A file that shrank since it was opened reads short: libtiff reports a read error. */
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(io->fd, (unsigned char *)into + done, n - done, (off_t)(io->position + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    io->position += done;
    return (tmsize_t)done;
}

void dr_tiff_chunks_free(dr_tiff_chunks *c) {
    for (size_t i = 0; i < c->count; i++) free(c->chunks[i]);
    free(c->chunks);
    memset(c, 0, sizeof *c);
}

void dr_tiff_chunks_take(dr_tiff_chunks *c, unsigned char *into) {
    for (size_t i = 0; i < c->count; i++) {
        size_t start = i * DR_TIFF_CHUNK;
        if (start < c->length) {
            size_t n = c->length - start < DR_TIFF_CHUNK ? c->length - start : DR_TIFF_CHUNK;
            memcpy(into + start, c->chunks[i], n);
        }
        free(c->chunks[i]);
        c->chunks[i] = NULL;
    }
    dr_tiff_chunks_free(c);
}

/* Makes room for `end` bytes; new chunks are zeroed (a seek past the end leaves a gap of zeros). */
static int chunks_reserve(dr_tiff_chunks *c, size_t end) {
    size_t needed = (end + DR_TIFF_CHUNK - 1) / DR_TIFF_CHUNK;
    if (needed <= c->count) return 1;
    unsigned char **grown = realloc(c->chunks, needed * sizeof *grown);
    if (grown == NULL) return 0;
    c->chunks = grown;
    while (c->count < needed) {
        c->chunks[c->count] = calloc(1, DR_TIFF_CHUNK);
        if (c->chunks[c->count] == NULL) return 0;
        c->count++;
    }
    return 1;
}

static tmsize_t write_proc(thandle_t handle, void *from, tmsize_t size) {
    dr_tiff_io *io = handle;
    if (io->out == NULL || size < 0) return -1;
    size_t end = io->position + (size_t)size;
    if (io->file) {
        /* Straight into the output's temporary file; a seek past the end leaves a hole of zeros. */
        if (!dr_write_at(io->fd, io->position, from, (size_t)size)) {
            if (io->status == DR_OK) {
                io->status = DR_WRITE_FAILED;
                dr_set_message(io->message, io->capacity, "%s", strerror(errno));
            }
            return -1;
        }
        if (end > io->out->length) io->out->length = end;
        io->position = end;
        return size;
    }
    if (!chunks_reserve(io->out, end)) return -1;
    const unsigned char *p = from;
    size_t at = io->position;
    while (at < end) {
        size_t offset = at % DR_TIFF_CHUNK;
        size_t n = DR_TIFF_CHUNK - offset < end - at ? DR_TIFF_CHUNK - offset : end - at;
        memcpy(io->out->chunks[at / DR_TIFF_CHUNK] + offset, p, n);
        p += n;
        at += n;
    }
    if (end > io->out->length) io->out->length = end;
    io->position = end;
    return size;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    dr_tiff_io *io = handle;
    size_t size = io->out != NULL ? io->out->length : io->length;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? io->position : size;
    io->position = (size_t)(base + offset);
    return (toff_t)io->position;
}

static int close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t size_proc(thandle_t handle) {
    dr_tiff_io *io = handle;
    return (toff_t)(io->out != NULL ? io->out->length : io->length);
}

/* No mapping: the input's address may change between calls (see dr_reader_open). */
static int map_proc(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

TIFF *dr_tiff_open(dr_tiff_io *io, const char *mode) {
    if (dr_tiff_load(io->message, io->capacity)) {
        io->status = DR_UNSUPPORTED;
        return NULL;
    }
    pthread_once(&silence_once, silence_globals);
    TIFFOpenOptions *options = dr_tiff.TIFFOpenOptionsAlloc();
    if (options == NULL) {
        io->status = DR_OUT_OF_MEMORY;
        dr_set_message(io->message, io->capacity, "out of memory opening a TIFF");
        return NULL;
    }
    dr_tiff.TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, io);
    dr_tiff.TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, io);
    TIFF *tif = dr_tiff.TIFFClientOpenExt(io->out != NULL ? "output" : "input", mode, (thandle_t)io, read_proc, write_proc,
                                  seek_proc, close_proc, size_proc, map_proc, unmap_proc, options);
    dr_tiff.TIFFOpenOptionsFree(options);
    if (tif == NULL && io->status == DR_OK) {
        io->status = io->out != NULL ? DR_ENCODE_FAILED : DR_CORRUPT;
        dr_set_message(io->message, io->capacity, "TIFF: the file could not be opened");
    }
    return tif;
}

int dr_tiff_write_at(dr_tiff_io *io, uint64_t offset, const void *data, size_t n) {
    size_t position = io->position;
    io->position = (size_t)offset;
    tmsize_t written = write_proc((thandle_t)io, (void *)(uintptr_t)data, (tmsize_t)n);
    io->position = position;
    return written == (tmsize_t)n;
}

void dr_tiff_rearm(dr_tiff_io *io, char *message, size_t capacity) {
    io->message = message;
    io->capacity = capacity;
}
