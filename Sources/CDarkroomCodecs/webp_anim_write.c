/*
 * Animated WebP output through libwebpmux's WebPAnimEncoder: each frame's rows go into one ARGB
 * picture, which the encoder takes when the frame ends (it keeps the previous canvas and its
 * candidate sub-frames, not the frames); the animation is assembled at finish, its loop count
 * in the ANIM chunk, then the ICCP, EXIF and XMP chunks added.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

typedef struct {
    dr_writer base; /* first: the generic writer */
    WebPAnimEncoder *encoder;
    WebPPicture picture;
    WebPConfig config;
    int channels, written, frames, timestamp;
    dr_status status;
    dr_metadata metadata; /* copies, owned */
    unsigned char *icc;
    size_t icc_length;
} anim_writer;

static void anim_close(dr_writer *base) {
    anim_writer *w = (anim_writer *)base;
    if (w->encoder != NULL) WebPAnimEncoderDelete(w->encoder);
    WebPPictureFree(&w->picture);
    dr_metadata_free(&w->metadata);
    free(w->icc);
    free(w);
}

static dr_status failed(anim_writer *w, char *message, size_t capacity, dr_status status, const char *text) {
    w->status = status;
    dr_set_message(message, capacity, "WebP: %s", text);
    return status;
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
    if (w->written + count > w->picture.height) return failed(w, message, capacity, DR_ENCODE_FAILED, "more rows than a frame has");
    dr_webp_pack_argb(&w->picture, w->written, rows, stride, count, w->channels);
    w->written += count;
    return DR_OK;
}

static dr_status anim_end_frame(dr_writer *base, int delay_ms, char *message, size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written != w->picture.height) return failed(w, message, capacity, DR_ENCODE_FAILED, "a frame ended before its last row");
    if (!WebPAnimEncoderAdd(w->encoder, &w->picture, w->timestamp, &w->config)) {
        dr_set_message(message, capacity, "WebP: %s", WebPAnimEncoderGetError(w->encoder));
        return w->status = w->picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED;
    }
    w->timestamp += delay_ms < 0 ? 0 : delay_ms;
    w->written = 0;
    w->frames++;
    return DR_OK;
}

static dr_status anim_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    anim_writer *w = (anim_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->status != DR_OK) return w->status;
    /* A still image written to an animated writer is one frame. */
    if (w->frames == 0 && anim_end_frame(base, 100, message, capacity) != DR_OK) return w->status;
    if (w->written != 0) return failed(w, message, capacity, DR_ENCODE_FAILED, "the last frame is incomplete");
    WebPData data = {NULL, 0};
    if (!WebPAnimEncoderAdd(w->encoder, NULL, w->timestamp, NULL) || !WebPAnimEncoderAssemble(w->encoder, &data)) {
        dr_set_message(message, capacity, "WebP: %s", WebPAnimEncoderGetError(w->encoder));
        return w->status = DR_ENCODE_FAILED;
    }
    WebPPictureFree(&w->picture);
    int ok = dr_webp_add_chunks(&data, w->icc, w->icc_length, &w->metadata, out);
    WebPDataClear(&data);
    if (!ok) {
        dr_buffer_free(out);
        return failed(w, message, capacity, DR_ENCODE_FAILED, "the metadata chunks could not be added");
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
    if (!WebPPictureInit(&w->picture) || !WebPConfigInit(&w->config) || !WebPAnimEncoderOptionsInit(&encoder_options)) {
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
    w->picture.use_argb = 1;
    w->picture.width = width;
    w->picture.height = height;
    if (!WebPValidateConfig(&w->config) || !WebPPictureAlloc(&w->picture)) {
        WebPPictureFree(&w->picture);
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
