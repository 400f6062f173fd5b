/*
 * GIF output as libvips writes it: each frame's palette built by libimagequant (with its
 * Floyd-Steinberg dithering), the frames encoded by cgif, which writes each into the sink as it
 * leaves its queue of three (it makes pixels equal to the frame before transparent and crops to
 * the changed rectangle where the palette and alpha allow). GIF transparency is one palette
 * entry: alpha is thresholded at 128 before quantising, so every transparent pixel lands in one
 * entry, which becomes the frame's transparent index (and the frame before it is then disposed
 * to the background, cgif's doing).
 */
#include "internal.h"

#include <cgif.h>
#include <libimagequant.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    dr_writer base; /* first: the generic writer */
    CGIF *gif;
    dr_gif_write_options options;
    int width, height, written, frames;
    unsigned char *rgba;    /* one frame */
    unsigned char *indices; /* its palette indices */
    dr_status status;
    char problem[160];      /* why the sink refused bytes */
} gif_writer;

/* cgif's output callback: into the sink (memory, or the output's file). */
static int put_bytes(void *context, const uint8_t *bytes, const size_t n) {
    gif_writer *w = context;
    if (w->status != DR_OK) return -1;
    dr_status status = dr_sink_put(&w->base.sink, bytes, n, w->problem, sizeof w->problem);
    if (status != DR_OK) w->status = status;
    return status == DR_OK ? 0 : -1;
}

static void gif_close(dr_writer *base) {
    gif_writer *w = (gif_writer *)base;
    if (w->gif != NULL) cgif_close(w->gif);
    free(w->rgba);
    free(w->indices);
    free(w);
}

static dr_status failed(gif_writer *w, char *message, size_t capacity, dr_status status, const char *text) {
    w->status = status;
    dr_set_message(message, capacity, "GIF: %s", text);
    return status;
}

static dr_status gif_set_icc(dr_writer *base, const unsigned char *profile, size_t length, char *message, size_t capacity) {
    (void)base;
    (void)profile;
    (void)length;
    dr_set_message(message, capacity, "GIF holds no colour profile");
    return DR_UNSUPPORTED;
}

static dr_status gif_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count, char *message,
                                size_t capacity) {
    gif_writer *w = (gif_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written + count > w->height) return failed(w, message, capacity, DR_ENCODE_FAILED, "more rows than a frame has");
    for (int i = 0; i < count; i++) {
        const unsigned char *p = rows + stride * (size_t)i;
        unsigned char *to = w->rgba + (size_t)(w->written + i) * (size_t)w->width * 4;
        for (int x = 0; x < w->width; x++, p += w->options.channels, to += 4) {
            unsigned a = w->options.channels == 4 ? p[3] : 255;
            if (a < 128) {
                memset(to, 0, 4);
            } else {
                to[0] = p[0];
                to[1] = p[1];
                to[2] = p[2];
                to[3] = 255;
            }
        }
    }
    w->written += count;
    return DR_OK;
}

/* Opens the cgif stream at the first frame, when whether the file is animated is known. */
static dr_status start(gif_writer *w, int animated, char *message, size_t capacity) {
    CGIF_Config config;
    memset(&config, 0, sizeof config);
    config.attrFlags = CGIF_ATTR_NO_GLOBAL_TABLE;
    if (animated) {
        config.attrFlags |= CGIF_ATTR_IS_ANIMATED;
        if (w->options.loop_count == 1) config.attrFlags |= CGIF_ATTR_NO_LOOP;
        /* NETSCAPE2.0 counts repetitions after the first play. */
        int repeats = w->options.loop_count <= 0 ? 0 : w->options.loop_count - 1;
        config.numLoops = (uint16_t)(repeats > 65535 ? 65535 : repeats);
    }
    config.width = (uint16_t)w->width;
    config.height = (uint16_t)w->height;
    config.pWriteFn = put_bytes;
    config.pContext = w;
    w->gif = cgif_newgif(&config);
    if (w->gif == NULL) {
        if (w->status != DR_OK) return failed(w, message, capacity, w->status, w->problem);
        return failed(w, message, capacity, DR_OUT_OF_MEMORY, "out of memory starting the file");
    }
    return DR_OK;
}

static dr_status add_frame(gif_writer *w, int delay_ms, int animated, char *message, size_t capacity) {
    if (w->written != w->height) return failed(w, message, capacity, DR_ENCODE_FAILED, "a frame ended before its last row");
    if (w->gif == NULL && start(w, animated, message, capacity) != DR_OK) return w->status;
    liq_attr *attr = liq_attr_create();
    if (attr == NULL) return failed(w, message, capacity, DR_OUT_OF_MEMORY, "out of memory quantising");
    int colors = w->options.colors < 2 ? 2 : w->options.colors > 256 ? 256 : w->options.colors;
    int effort = w->options.effort < 1 ? 1 : w->options.effort > 10 ? 10 : w->options.effort;
    liq_set_max_colors(attr, colors);
    liq_set_speed(attr, 11 - effort);
    liq_image *image = liq_image_create_rgba(attr, w->rgba, w->width, w->height, 0);
    liq_result *result = NULL;
    liq_error error = image != NULL ? liq_image_quantize(image, attr, &result) : LIQ_OUT_OF_MEMORY;
    if (error == LIQ_OK) {
        liq_set_dithering_level(result, w->options.dither < 0 ? 0 : w->options.dither > 1 ? 1 : w->options.dither);
        error = liq_write_remapped_image(result, image, w->indices, (size_t)w->width * (size_t)w->height);
    }
    uint8_t palette[256 * 3];
    CGIF_FrameConfig frame;
    memset(&frame, 0, sizeof frame);
    if (error == LIQ_OK) {
        const liq_palette *entries = liq_get_palette(result);
        for (unsigned i = 0; i < entries->count; i++) {
            palette[3 * i] = entries->entries[i].r;
            palette[3 * i + 1] = entries->entries[i].g;
            palette[3 * i + 2] = entries->entries[i].b;
            if (entries->entries[i].a < 128) {
                frame.attrFlags |= CGIF_FRAME_ATTR_HAS_ALPHA;
                frame.transIndex = (uint8_t)i;
            }
        }
        frame.numLocalPaletteEntries = (uint16_t)entries->count;
    }
    if (result != NULL) liq_result_destroy(result);
    if (image != NULL) liq_image_destroy(image);
    liq_attr_destroy(attr);
    if (error != LIQ_OK)
        return failed(w, message, capacity, error == LIQ_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED,
                      "libimagequant could not build a palette");
    frame.attrFlags |= CGIF_FRAME_ATTR_USE_LOCAL_TABLE;
    frame.genFlags = CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW;
    frame.pLocalPalette = palette;
    frame.pImageData = w->indices;
    int centiseconds = (delay_ms + 5) / 10;
    frame.delay = (uint16_t)(centiseconds < 0 ? 0 : centiseconds > 65535 ? 65535 : centiseconds);
    if (cgif_addframe(w->gif, &frame) != CGIF_OK) {
        if (w->status != DR_OK) return failed(w, message, capacity, w->status, w->problem);
        return failed(w, message, capacity, DR_ENCODE_FAILED, "cgif could not add the frame");
    }
    w->written = 0;
    w->frames++;
    return DR_OK;
}

static dr_status gif_end_frame(dr_writer *base, int delay_ms, char *message, size_t capacity) {
    gif_writer *w = (gif_writer *)base;
    if (w->status != DR_OK) return w->status;
    return add_frame(w, delay_ms, 1, message, capacity);
}

static dr_status gif_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    gif_writer *w = (gif_writer *)base;
    (void)out; /* the sink's buffer is `ended` already */
    if (w->status != DR_OK) return w->status;
    if (w->frames == 0 && add_frame(w, 0, 0, message, capacity) != DR_OK) return w->status;
    if (w->written != 0) return failed(w, message, capacity, DR_ENCODE_FAILED, "the last frame is incomplete");
    int result = cgif_close(w->gif);
    w->gif = NULL;
    if (w->status != DR_OK) return failed(w, message, capacity, w->status, w->problem);
    if (result != CGIF_OK) return failed(w, message, capacity, DR_ENCODE_FAILED, "cgif could not end the file");
    return DR_OK;
}

dr_status dr_gif_writer_open(int width, int height, const dr_gif_write_options *options, dr_writer **out, char *message,
                             size_t capacity) {
    if (width > 65535 || height > 65535) {
        dr_set_message(message, capacity, "GIF cannot hold an image wider or taller than 65535 pixels");
        return DR_ENCODE_FAILED;
    }
    gif_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->base.format = DR_FORMAT_GIF;
    w->base.set_icc = gif_set_icc;
    w->base.write_rows = gif_write_rows;
    w->base.end_frame = gif_end_frame;
    w->base.finish = gif_finish;
    w->base.close = gif_close;
    w->options = *options;
    w->options.channels = options->channels == 4 ? 4 : 3;
    w->width = width;
    w->height = height;
    dr_sink_init(&w->base.sink, &w->base.ended, options->to_file, options->fd);
    w->rgba = malloc((size_t)width * (size_t)height * 4);
    w->indices = malloc((size_t)width * (size_t)height);
    if (w->rgba == NULL || w->indices == NULL) {
        gif_close(&w->base);
        dr_set_message(message, capacity, "out of memory for a %d×%d GIF frame", width, height);
        return DR_OUT_OF_MEMORY;
    }
    *out = &w->base;
    return DR_OK;
}
