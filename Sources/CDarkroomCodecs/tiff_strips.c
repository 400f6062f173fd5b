/*
 * Strip prefetch for a striped TIFF read in place: a second libtiff handle on the same
 * descriptor, on a thread of its own, decodes the strip after the one the reader's thread is
 * decoding, so two strips decompress at once (LZW and deflate are one core's work per strip;
 * with one thread the decode was the slowest stage of a large scan's pipeline). Only for a file
 * read through its descriptor: pread needs no shared position, and an in-memory input's bytes
 * are only valid during the reader's own call.
 */
#include "tiff_strips.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct dr_tiff_prefetch {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    dr_tiff_io io; /* the helper's own: its position, status and message */
    char message[512];
    TIFF *tif;
    unsigned char *buffer;
    tmsize_t capacity, got;
    long requested; /* the strip asked for or decoded into `buffer`; -1 none */
    int busy, quit;
};

static void *decode_loop(void *argument) {
    dr_tiff_prefetch *p = argument;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->busy && !p->quit) pthread_cond_wait(&p->changed, &p->lock);
        if (p->quit) break;
        uint32_t strip = (uint32_t)p->requested;
        pthread_mutex_unlock(&p->lock);
        tmsize_t got = p->io.status == DR_OK ? dr_tiff.TIFFReadEncodedStrip(p->tif, strip, p->buffer, p->capacity) : -1;
        pthread_mutex_lock(&p->lock);
        p->got = got;
        p->busy = 0;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

dr_tiff_prefetch *dr_tiff_prefetch_open(const dr_tiff_io *io, tmsize_t strip_bytes) {
    if (!io->file || strip_bytes <= 0) return NULL;
    dr_tiff_prefetch *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->io = (dr_tiff_io){.file = 1, .fd = io->fd, .length = io->length, .message = p->message,
                         .capacity = sizeof p->message};
    p->requested = -1;
    p->capacity = strip_bytes;
    p->buffer = malloc((size_t)strip_bytes);
    p->tif = p->buffer != NULL ? dr_tiff_open(&p->io, "rm") : NULL;
    if (p->tif == NULL) {
        free(p->buffer);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    if (pthread_create(&p->thread, NULL, decode_loop, p) != 0) {
        pthread_cond_destroy(&p->changed);
        pthread_mutex_destroy(&p->lock);
        dr_tiff.TIFFClose(p->tif);
        free(p->buffer);
        free(p);
        return NULL;
    }
    return p;
}

long dr_tiff_prefetch_requested(dr_tiff_prefetch *p) {
    pthread_mutex_lock(&p->lock);
    long strip = p->requested;
    pthread_mutex_unlock(&p->lock);
    return strip;
}

void dr_tiff_prefetch_start(dr_tiff_prefetch *p, uint32_t strip) {
    pthread_mutex_lock(&p->lock);
    while (p->busy) pthread_cond_wait(&p->changed, &p->lock); /* the buffer is in use until then */
    p->requested = strip;
    p->got = -1;
    p->busy = 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

const unsigned char *dr_tiff_prefetch_wait(dr_tiff_prefetch *p, tmsize_t *got, dr_status *status,
                                           char *message, size_t capacity) {
    pthread_mutex_lock(&p->lock);
    while (p->busy) pthread_cond_wait(&p->changed, &p->lock);
    *got = p->got;
    pthread_mutex_unlock(&p->lock);
    *status = p->io.status;
    if (p->io.status != DR_OK) dr_set_message(message, capacity, "%s", p->message);
    return p->buffer;
}

void dr_tiff_prefetch_close(dr_tiff_prefetch *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL); /* after the strip it may be decoding */
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
    dr_tiff.TIFFClose(p->tif);
    free(p->buffer);
    free(p);
}
