/*
 * An animated writer's frames encoded beside the caller: when a frame ends, it is encoded on a
 * thread of its own while the caller renders the next one into the writer's other buffer, as
 * libvips' write-behind thread encodes while its workers compute. The thread comes out of the
 * compute slots (dr_threads_take), one frame at a time: when none is free the frame is encoded
 * on the caller's thread, as a still image is. libimagequant's OpenMP regions on that thread
 * run on it alone, since it holds one slot.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "internal.h"

#include <string.h>

void dr_frame_worker_init(dr_frame_worker *w, dr_frame_encode encode, void *writer) {
    memset(w, 0, sizeof *w);
    w->encode = encode;
    w->writer = writer;
}

static void *worker_main(void *argument) {
    dr_frame_worker *w = argument;
    w->status = w->encode(w->writer, w->buffer, w->delay_ms, w->message, sizeof w->message);
    dr_threads_give(1);
    return NULL;
}

dr_status dr_frame_worker_wait(dr_frame_worker *w, char *message, size_t capacity) {
    if (!w->running) return DR_OK;
    pthread_join(w->thread, NULL);
    w->running = 0;
    if (w->status != DR_OK) dr_set_message(message, capacity, "%s", w->message);
    return w->status;
}

dr_status dr_frame_worker_start(dr_frame_worker *w, int buffer, int delay_ms, char *message, size_t capacity) {
    dr_status status = dr_frame_worker_wait(w, message, capacity);
    if (status != DR_OK) return status;
    w->buffer = buffer;
    w->delay_ms = delay_ms;
    w->status = DR_OK;
    w->message[0] = 0;
    if (dr_threads_take(1) == 1) {
        if (pthread_create(&w->thread, NULL, worker_main, w) == 0) {
            w->running = 1;
            return DR_OK;
        }
        dr_threads_give(1);
    }
    return w->encode(w->writer, buffer, delay_ms, message, capacity);
}
