/*
 * libtiff's plumbing shared by the TIFF reader and writer: memory streams as client procs, and
 * error and warning handlers that never print. libtiff reports errors through handlers and
 * return values (no longjmp); its default handlers print to stderr, so every TIFF is opened with
 * handlers of its own (TIFFOpenOptions, libtiff 4.5) and the process-wide ones are silenced too,
 * for the few messages libtiff emits before a handle exists.
 */
#include "tiff_io.h"

#include <pthread.h>
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
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

static tmsize_t read_proc(thandle_t handle, void *into, tmsize_t size) {
    dr_tiff_io *io = handle;
    if (io->bytes == NULL || size <= 0 || io->position >= io->length) return 0;
    size_t n = (size_t)size < io->length - io->position ? (size_t)size : io->length - io->position;
    memcpy(into, io->bytes + io->position, n);
    io->position += n;
    return (tmsize_t)n;
}

static tmsize_t write_proc(thandle_t handle, void *from, tmsize_t size) {
    dr_tiff_io *io = handle;
    if (io->out == NULL || size < 0) return -1;
    size_t end = io->position + (size_t)size;
    if (end > io->out->length) {
        /* Grow to `end`, zero-filling a gap left by a seek past the end. */
        size_t old = io->out->length;
        static const unsigned char zeros[4096];
        while (io->out->length < io->position) {
            size_t gap = io->position - io->out->length;
            if (!dr_buffer_append(io->out, zeros, gap < sizeof zeros ? gap : sizeof zeros)) return -1;
        }
        size_t overlap = io->position < old ? old - io->position : 0;
        if (overlap > 0) memcpy(io->out->data + io->position, from, overlap);
        if (!dr_buffer_append(io->out, (const unsigned char *)from + overlap, (size_t)size - overlap)) return -1;
    } else {
        memcpy(io->out->data + io->position, from, (size_t)size);
    }
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
    pthread_once(&silence_once, silence_globals);
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        io->status = DR_OUT_OF_MEMORY;
        dr_set_message(io->message, io->capacity, "out of memory opening a TIFF");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, io);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, io);
    TIFF *tif = TIFFClientOpenExt(io->out != NULL ? "output" : "input", mode, (thandle_t)io, read_proc, write_proc,
                                  seek_proc, close_proc, size_proc, map_proc, unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (tif == NULL && io->status == DR_OK) {
        io->status = io->out != NULL ? DR_ENCODE_FAILED : DR_CORRUPT;
        dr_set_message(io->message, io->capacity, "TIFF: the file could not be opened");
    }
    return tif;
}

void dr_tiff_rearm(dr_tiff_io *io, char *message, size_t capacity) {
    io->message = message;
    io->capacity = capacity;
}
