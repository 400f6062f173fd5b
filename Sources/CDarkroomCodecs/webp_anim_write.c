/*
 * Animated WebP output through libwebpmux's WebPAnimEncoder: each frame's rows go into an ARGB
 * picture, which the encoder takes when the frame ends (it keeps the previous canvas and its
 * candidate sub-frames, not the frames), on a thread of its own while the next frame's rows go
 * into the other picture (frame_worker.c); the animation is assembled at finish, its loop count
 * in the ANIM chunk, then the ICCP, EXIF and XMP chunks added. Options as libvips' webpsave
 * sets them: WebPAnimEncoder's defaults (no key frames forced, lossy or lossless, not mixed),
 * so each frame is encoded once, to its changed rectangle.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

typedef struct {
    dr_writer base; /* first: the generic writer */
    WebPAnimEncoder *encoder;
    WebPPicture picture[2]; /* the frame being written, and the one being encoded */
    int current;            /* the picture rows go into */
    int timestamps[2];      /* each picture's start, in milliseconds */
    dr_frame_worker worker;
    WebPConfig config;
    int channels, written, frames, timestamp;
    dr_status status;
    dr_metadata metadata; /* copies, owned */
    unsigned char *icc;
    size_t icc_length;
} anim_writer;

static void anim_close(dr_writer *base) {
    anim_writer *w = (anim_writer *)base;
    char ignored[8];
    dr_frame_worker_wait(&w->worker, ignored, sizeof ignored);
    if (w->encoder != NULL) WebPAnimEncoderDelete(w->encoder);
    WebPPictureFree(&w->picture[0]);
    WebPPictureFree(&w->picture[1]);
    dr_metadata_free(&w->metadata);
    free(w->icc);
    free(w);
}

static dr_status anim_set_icc(dr_writer *base, const unsigned char *profile, size_t length, char *message, size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    if (w->status != DR_OK) return w->status;
    free(w->icc);
    w->icc = NULL;
    w->icc_length = 0;
    dr_metadata_keep(&w->icc, &w->icc_length, profile, length);
    (void)message;
    (void)capacity;
    return DR_OK;
}

static dr_status anim_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count, char *message,
                                 size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    if (w->status != DR_OK) return w->status;
    WebPPicture *picture = &w->picture[w->current];
    if (w->written + count > picture->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: more rows than a frame has");
    dr_webp_pack_argb(picture, w->written, rows, stride, count, w->channels);
    w->written += count;
    return DR_OK;
}

/* Hands picture `buffer` to the encoder (on the worker's thread, or the caller's). */
static dr_status encode_frame(void *writer, int buffer, int delay_ms, char *message, size_t capacity) {
    anim_writer *w = writer;
    (void)delay_ms; /* its timestamp is the picture's */
    WebPPicture *picture = &w->picture[buffer];
    if (!WebPAnimEncoderAdd(w->encoder, picture, w->timestamps[buffer], &w->config)) {
        dr_set_message(message, capacity, "WebP: %s", WebPAnimEncoderGetError(w->encoder));
        return picture->error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED;
    }
    return DR_OK;
}

static dr_status anim_end_frame(dr_writer *base, int delay_ms, char *message, size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written != w->picture[w->current].height)
        return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: a frame ended before its last row");
    if (w->picture[1].argb == NULL) {
        w->picture[1].use_argb = 1;
        w->picture[1].width = w->picture[0].width;
        w->picture[1].height = w->picture[0].height;
        if (!WebPPictureAlloc(&w->picture[1])) return dr_fail(&w->status, message, capacity, DR_OUT_OF_MEMORY, "WebP: out of memory for a second frame");
    }
    int buffer = w->current;
    w->timestamps[buffer] = w->timestamp;
    w->timestamp += delay_ms < 0 ? 0 : delay_ms;
    w->current ^= 1;
    w->written = 0;
    w->frames++;
    dr_status status = dr_frame_worker_start(&w->worker, buffer, delay_ms, message, capacity);
    if (status != DR_OK) w->status = status;
    return status;
}

static dr_status anim_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->status != DR_OK) return w->status;
    /* A still image written to an animated writer is one frame. */
    if (w->frames == 0 && anim_end_frame(base, 100, message, capacity) != DR_OK) return w->status;
    if (w->written != 0) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: the last frame is incomplete");
    dr_status status = dr_frame_worker_wait(&w->worker, message, capacity);
    if (status != DR_OK) return w->status = status;
    WebPData data = {NULL, 0};
    if (!WebPAnimEncoderAdd(w->encoder, NULL, w->timestamp, NULL) || !WebPAnimEncoderAssemble(w->encoder, &data)) {
        dr_set_message(message, capacity, "WebP: %s", WebPAnimEncoderGetError(w->encoder));
        return w->status = DR_ENCODE_FAILED;
    }
    WebPPictureFree(&w->picture[0]);
    WebPPictureFree(&w->picture[1]);
    int ok = dr_webp_add_chunks(&data, w->icc, w->icc_length, &w->metadata, out);
    WebPDataClear(&data);
    if (!ok) {
        dr_buffer_free(out);
        return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: the metadata chunks could not be added");
    }
    return DR_OK;
}

dr_status dr_webp_anim_writer_open(int width, int height, const dr_webp_write_options *options, const dr_metadata *metadata,
                                   dr_writer **out, char *message, size_t capacity) {
    anim_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->base.format = DR_FORMAT_WEBP;
    w->base.set_icc = anim_set_icc;
    w->base.write_rows = anim_write_rows;
    w->base.end_frame = anim_end_frame;
    w->base.finish = anim_finish;
    w->base.close = anim_close;
    w->channels = options->channels == 4 ? 4 : 3;
    WebPAnimEncoderOptions encoder_options;
    dr_frame_worker_init(&w->worker, encode_frame, w);
    if (!WebPPictureInit(&w->picture[0]) || !WebPPictureInit(&w->picture[1]) || !WebPConfigInit(&w->config) ||
        !WebPAnimEncoderOptionsInit(&encoder_options)) {
        free(w);
        dr_set_message(message, capacity, "WebP: libwebp version mismatch");
        return DR_ENCODE_FAILED;
    }
    w->config.quality = options->quality < 0 ? 0 : options->quality > 100 ? 100 : options->quality;
    w->config.lossless = options->lossless ? 1 : 0;
    w->config.method = options->effort < 0 ? 0 : options->effort > 6 ? 6 : options->effort;
    w->config.exact = options->lossless ? 1 : 0;
    encoder_options.anim_params.loop_count = options->loop_count < 0 ? 0 : options->loop_count;
    encoder_options.allow_mixed = 0;
    w->picture[0].use_argb = 1;
    w->picture[0].width = width;
    w->picture[0].height = height;
    if (!WebPValidateConfig(&w->config) || !WebPPictureAlloc(&w->picture[0])) {
        WebPPictureFree(&w->picture[0]);
        free(w);
        dr_set_message(message, capacity, "out of memory for a %d×%d WebP frame", width, height);
        return DR_OUT_OF_MEMORY;
    }
    w->encoder = WebPAnimEncoderNew(width, height, &encoder_options);
    if (w->encoder == NULL) {
        anim_close(&w->base);
        dr_set_message(message, capacity, "out of memory for a %d×%d WebP animation", width, height);
        return DR_OUT_OF_MEMORY;
    }
    if (metadata != NULL) {
        dr_metadata_keep(&w->metadata.exif, &w->metadata.exif_length, metadata->exif, metadata->exif_length);
        dr_metadata_keep(&w->metadata.xmp, &w->metadata.xmp_length, metadata->xmp, metadata->xmp_length);
    }
    *out = &w->base;
    return DR_OK;
}
