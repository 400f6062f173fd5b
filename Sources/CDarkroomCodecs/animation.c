/*
 * The frames of an animated GIF or WebP, one at a time, each composed on the full canvas:
 * GIF through dr_gif_frames (giflib), WebP through libwebpdemux's WebPAnimDecoder (which
 * applies WebP's disposal and alpha blending). Neither keeps more than the canvas and one copy
 * of it (a GIF frame disposed "to previous", WebPAnimDecoder's previous canvas).
 *
 * A WebP's ICC profile (its ICCP chunk) is applied to each composed frame, as the still reader
 * applies it to its rows: frames are blended in the file's colour space, then converted. The
 * converted canvas is WebPAnimDecoder's current one, which it no longer reads once GetNext has
 * returned (the next frame starts from its own copy of the disposed previous canvas).
 */
#include "gif_decode.h"

#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

struct dr_animation {
    int format;
    dr_gif_frames *gif;
    WebPAnimDecoder *webp;
    dr_color_converter *color; /* a WebP's frames to sRGB, or NULL */
    int width, height;
    int previous_timestamp;
    uint64_t deadline_ns;
};

static dr_status open_gif(dr_animation *a, const unsigned char *bytes, size_t length, const dr_read_options *options,
                          dr_animation_info *info, char *message, size_t capacity) {
    dr_gif_shape shape;
    dr_status status = dr_gif_scan(bytes, length, &shape, message, capacity);
    if (status != DR_OK) return status;
    info->width = shape.width;
    info->height = shape.height;
    info->frames = shape.frames;
    info->has_alpha = shape.has_alpha;
    /* NETSCAPE2.0 counts repetitions after the first play. */
    info->loop_count = shape.loop_count < 0 ? 1 : shape.loop_count == 0 ? 0 : shape.loop_count + 1;
    if ((uint64_t)shape.width * (uint64_t)shape.height > options->max_pixels) {
        dr_set_message(message, capacity, "image is %d×%d pixels, over the limit of %llu pixels", shape.width,
                       shape.height, (unsigned long long)options->max_pixels);
        return DR_TOO_LARGE;
    }
    if (shape.truncated) {
        dr_set_message(message, capacity, "GIF data ends early (truncated file?)");
        return DR_TRUNCATED;
    }
    return dr_gif_frames_open(bytes, length, &shape, options->deadline_ns, &a->gif, message, capacity);
}

static dr_status open_webp(dr_animation *a, const unsigned char *bytes, size_t length, const dr_read_options *options,
                           dr_animation_info *info, char *message, size_t capacity) {
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(bytes, length, &features);
    if (code != VP8_STATUS_OK) {
        dr_set_message(message, capacity, code == VP8_STATUS_NOT_ENOUGH_DATA ? "WebP data ends early (truncated file?)"
                                                                            : "WebP: corrupt header");
        return code == VP8_STATUS_NOT_ENOUGH_DATA ? DR_TRUNCATED : DR_CORRUPT;
    }
    if ((uint64_t)features.width * (uint64_t)features.height > options->max_pixels) {
        dr_set_message(message, capacity, "image is %d×%d pixels, over the limit of %llu pixels", features.width,
                       features.height, (unsigned long long)options->max_pixels);
        return DR_TOO_LARGE;
    }
    WebPAnimDecoderOptions decoder_options;
    if (!WebPAnimDecoderOptionsInit(&decoder_options)) {
        dr_set_message(message, capacity, "WebP: libwebpdemux version mismatch");
        return DR_UNSUPPORTED;
    }
    decoder_options.color_mode = MODE_RGBA;
    decoder_options.use_threads = 0;
    WebPData data = {bytes, length};
    a->webp = WebPAnimDecoderNew(&data, &decoder_options);
    if (a->webp == NULL) {
        dr_set_message(message, capacity, "WebP: the animation could not be read (corrupt or truncated)");
        return DR_CORRUPT;
    }
    WebPAnimInfo anim;
    WebPAnimDecoderGetInfo(a->webp, &anim);
    info->width = (int)anim.canvas_width;
    info->height = (int)anim.canvas_height;
    info->frames = (int)anim.frame_count;
    info->loop_count = (int)anim.loop_count;
    info->has_alpha = 1; /* a frame may leave the canvas transparent */
    a->width = info->width;
    a->height = info->height;
    WebPChunkIterator chunk;
    if (options->convert_to_srgb && WebPDemuxGetChunk(WebPAnimDecoderGetDemuxer(a->webp), "ICCP", 1, &chunk)) {
        /* The still reader's rules: an sRGB profile is left alone, an unusable one ignored (the
         * colour plan, made from the same header, warns of it). */
        dr_info profile = {.icc = (unsigned char *)chunk.chunk.bytes, .icc_length = chunk.chunk.size};
        dr_reader shape = {.bytes_per_sample = 1};
        a->color = dr_reader_color_setup(&shape, &profile, options, DR_SPACE_RGB, 4, 0);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    info->converts_color = a->color != NULL;
    return DR_OK;
}

dr_status dr_animation_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                            dr_animation_info *info, dr_animation **out, char *message, size_t capacity) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    int format = dr_sniff(bytes, length);
    if (format != DR_FORMAT_GIF && format != DR_FORMAT_WEBP) {
        dr_set_message(message, capacity, "only a GIF or a WebP is read frame by frame");
        return DR_UNSUPPORTED;
    }
    dr_animation *a = calloc(1, sizeof *a);
    if (a == NULL) return DR_OUT_OF_MEMORY;
    a->format = format;
    a->deadline_ns = options->deadline_ns;
    dr_status status = format == DR_FORMAT_GIF ? open_gif(a, bytes, length, options, info, message, capacity)
                                               : open_webp(a, bytes, length, options, info, message, capacity);
    if (status != DR_OK) {
        dr_animation_close(a);
        return status;
    }
    *out = a;
    return DR_OK;
}

dr_status dr_animation_next(dr_animation *a, const unsigned char *bytes, size_t length, const unsigned char **canvas,
                            int *delay_ms, char *message, size_t capacity) {
    (void)length;
    *canvas = NULL;
    *delay_ms = 0;
    if (a->gif != NULL) return dr_gif_frames_next(a->gif, bytes, canvas, delay_ms, message, capacity);
    if (a->deadline_ns != 0 && dr_monotonic_ns() > a->deadline_ns) {
        dr_set_message(message, capacity, "decoding ran past the time limit");
        return DR_CANCELLED;
    }
    /* WebPAnimDecoder keeps the address it was given; the caller's bytes do not move while it lives. */
    if (!WebPAnimDecoderHasMoreFrames(a->webp)) return DR_OK;
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(a->webp, &frame, &timestamp) || frame == NULL) {
        dr_set_message(message, capacity, "WebP: a frame could not be decoded (corrupt or truncated)");
        return DR_CORRUPT;
    }
    *delay_ms = timestamp - a->previous_timestamp;
    a->previous_timestamp = timestamp;
    if (a->color != NULL)
        for (int y = 0; y < a->height; y++)
            dr_color_converter_rows(a->color, frame + (size_t)y * (size_t)a->width * 4, (size_t)a->width);
    *canvas = frame;
    return DR_OK;
}

void dr_animation_close(dr_animation *a) {
    if (a == NULL) return;
    dr_gif_frames_close(a->gif);
    if (a->webp != NULL) WebPAnimDecoderDelete(a->webp);
    dr_color_converter_free(a->color);
    free(a);
}
