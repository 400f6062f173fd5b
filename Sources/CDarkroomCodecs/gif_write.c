/*
 * GIF output as libvips writes it: palettes built by libimagequant (with its Floyd-Steinberg
 * dithering), the frames encoded by cgif, which writes each into the sink as it leaves its queue
 * of three. GIF transparency is one palette entry: alpha is thresholded at 128 before quantising,
 * so every transparent pixel lands in one entry, which becomes the frame's transparent index
 * (and the frame before it is then disposed to the background, cgif's doing).
 *
 * An animation's frames after the first are written as libvips' cgifsave writes them: pixels
 * equal to the frame before are the transparent index (kept free: at most 255 colours), and cgif
 * crops the frame to the rest. Beyond libvips, only the rectangle that changed is quantised and
 * remapped, and a frame the previous palette still fits (palette_fit.c) is remapped to it
 * without building a new one. A frame whose pixels turn transparent where the frame before had
 * colour is written whole, with its own transparency.
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
    unsigned char *rgba[2]; /* the frame being written, and an animation's frame being encoded */
    int current;            /* the buffer rows go into */
    dr_frame_worker worker;
    /* What follows is the encoder's: the worker's thread uses it while a frame is encoded. */
    unsigned char *shown;   /* an animation: the frame before, as its pixels were given */
    unsigned char *indices; /* the frame's palette indices */
    void **rows;            /* row pointers into a rectangle of rgba (libimagequant keeps them
                               while its image lives), then `height` more into indices */
    liq_attr *attr;
    liq_result *palette;    /* the last palette built, kept while later frames fit it */
    dr_palette_fit fit;     /* its entries, to measure other frames against */
    dr_palette_error built; /* its error on the rectangle it was built for */
    dr_status encoding;     /* the encoder's status */
    char problem[160];      /* why the sink refused bytes */
    dr_status status;       /* the caller's: the first failure it was told */
} gif_writer;

/* A rectangle of the frame. */
typedef struct {
    int x, y, w, h;
} rect;

/* cgif's output callback: into the sink (memory, or the output's file). */
static int put_bytes(void *context, const uint8_t *bytes, const size_t n) {
    gif_writer *w = context;
    if (w->encoding != DR_OK) return -1;
    dr_status status = dr_sink_put(&w->base.sink, bytes, n, w->problem, sizeof w->problem);
    if (status != DR_OK) w->encoding = status;
    return status == DR_OK ? 0 : -1;
}

static void gif_close(dr_writer *base) {
    gif_writer *w = (gif_writer *)base;
    char ignored[8];
    dr_frame_worker_wait(&w->worker, ignored, sizeof ignored);
    if (w->gif != NULL) cgif_close(w->gif);
    if (w->palette != NULL) liq_result_destroy(w->palette);
    if (w->attr != NULL) liq_attr_destroy(w->attr);
    free(w->rgba[0]);
    free(w->rgba[1]);
    free(w->shown);
    free(w->indices);
    free(w->rows);
    free(w);
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
    if (w->written + count > w->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "GIF: more rows than a frame has");
    for (int i = 0; i < count; i++) {
        const unsigned char *p = rows + stride * (size_t)i;
        unsigned char *to = w->rgba[w->current] + (size_t)(w->written + i) * (size_t)w->width * 4;
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
        if (w->encoding != DR_OK) return dr_fail(&w->encoding, message, capacity, w->encoding, "GIF: %s", w->problem);
        return dr_fail(&w->encoding, message, capacity, DR_OUT_OF_MEMORY, "GIF: out of memory starting the file");
    }
    /* An animation's frames keep one index free: pixels unchanged from the frame before are
     * written as the transparent index, as libvips' cgifsave does. */
    int colors = w->options.colors < 2 ? 2 : w->options.colors > 256 ? 256 : w->options.colors;
    if (animated && colors > 255) colors = 255;
    int effort = w->options.effort < 1 ? 1 : w->options.effort > 10 ? 10 : w->options.effort;
    w->attr = liq_attr_create();
    if (w->attr == NULL) return dr_fail(&w->encoding, message, capacity, DR_OUT_OF_MEMORY, "GIF: out of memory quantising");
    liq_set_max_colors(w->attr, colors);
    liq_set_speed(w->attr, 11 - effort);
    if (animated && w->shown == NULL) {
        w->shown = malloc((size_t)w->width * (size_t)w->height * 4);
        if (w->shown == NULL) return dr_fail(&w->encoding, message, capacity, DR_OUT_OF_MEMORY, "GIF: out of memory for the frame before");
    }
    return DR_OK;
}

/* The rectangle of the frame that differs from the one before; 0 when a pixel turned
 * transparent that was not (the frame before must then be disposed of, and this one written
 * whole with its own transparency). An unchanged frame gives one pixel. */
static int changed(const gif_writer *w, const unsigned char *rgba, rect *r) {
    int x0 = w->width, x1 = -1, y0 = w->height, y1 = -1;
    size_t row = (size_t)w->width * 4;
    for (int y = 0; y < w->height; y++) {
        const unsigned char *now = rgba + row * (size_t)y, *before = w->shown + row * (size_t)y;
        if (memcmp(now, before, row) == 0) continue;
        for (int x = 0; x < w->width; x++) {
            if (memcmp(now + 4 * x, before + 4 * x, 4) == 0) continue;
            if (now[4 * x + 3] == 0 && before[4 * x + 3] != 0) return 0;
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
        }
        y0 = y < y0 ? y : y0;
        y1 = y;
    }
    if (x1 < 0) {
        *r = (rect){0, 0, 1, 1};
    } else {
        *r = (rect){x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    }
    return 1;
}

/* libimagequant's view of the rectangle `r` of the frame (no copy). */
static liq_image *image_of(gif_writer *w, unsigned char *rgba, rect r) {
    for (int y = 0; y < r.h; y++) w->rows[y] = rgba + ((size_t)(r.y + y) * (size_t)w->width + (size_t)r.x) * 4;
    return liq_image_create_rgba_rows(w->attr, w->rows, r.w, r.h, 0);
}

/* A new palette for the rectangle `r`, kept for the frames after it. */
static liq_error build_palette(gif_writer *w, liq_image *image, const unsigned char *rgba, rect r) {
    liq_result *result = NULL;
    liq_error error = liq_image_quantize(image, w->attr, &result);
    if (error != LIQ_OK) return error;
    if (w->palette != NULL) liq_result_destroy(w->palette);
    w->palette = result;
    /* Before any remapping: the palette every frame that reuses it starts from. */
    const liq_palette *entries = liq_get_palette(result);
    dr_palette_fit_set(&w->fit, (const unsigned char (*)[4])entries->entries, (int)entries->count);
    w->built = dr_palette_fit_error(&w->fit, rgba, w->width, r.x, r.y, r.w, r.h);
    return LIQ_OK;
}

/* Whether the kept palette serves the rectangle `r` about as well as it served its own: no
 * transparent pixel without an entry for it, the mean error at most a quarter (and one step)
 * worse, no pixel much further from its nearest entry than the worst of its own (a colour
 * the palette lacks). */
static int palette_fits(const gif_writer *w, const unsigned char *rgba, rect r) {
    if (w->palette == NULL) return 0;
    dr_palette_error e = dr_palette_fit_error(&w->fit, rgba, w->width, r.x, r.y, r.w, r.h);
    if (e.transparent_missing || e.mean > w->built.mean * 1.25 + 1 || e.max > 2 * w->built.max + 64) return 0;
    if (w->fit.has_transparent) return 1;
    /* Every pixel, not a sample: one transparent pixel needs an entry. */
    for (int y = r.y; y < r.y + r.h; y++) {
        const unsigned char *p = rgba + ((size_t)y * (size_t)w->width + (size_t)r.x) * 4;
        for (int x = 0; x < r.w; x++)
            if (p[4 * x + 3] == 0) return 0;
    }
    return 1;
}

/* Encodes the frame in `rgba` (the encoder's side: on the worker's thread, or the caller's). */
static dr_status add_frame(gif_writer *w, unsigned char *rgba, int delay_ms, int animated, char *message, size_t capacity) {
    if (w->encoding != DR_OK) return w->encoding;
    /* libimagequant's OpenMP regions run on this thread alone: it is one compute slot (the
     * worker's) or the caller's own render thread. */
    dr_openmp_threads(1);
    if (w->gif == NULL && start(w, animated, message, capacity) != DR_OK) return w->encoding;
    rect r = {0, 0, w->width, w->height};
    /* After the first frame of an animation only the changed rectangle is quantised and
     * remapped; the pixels around it (and those in it that did not change) are the transparent
     * index, showing the frame before. */
    int keep = animated && w->frames > 0 && changed(w, rgba, &r);
    liq_image *image = image_of(w, rgba, r);
    liq_error error = image == NULL ? LIQ_OUT_OF_MEMORY : LIQ_OK;
    if (error == LIQ_OK && !(animated && palette_fits(w, rgba, r))) error = build_palette(w, image, rgba, r);
    if (error == LIQ_OK) {
        liq_set_dithering_level(w->palette, w->options.dither < 0 ? 0 : w->options.dither > 1 ? 1 : w->options.dither);
        void **rows = w->rows + w->height;
        for (int y = 0; y < r.h; y++) rows[y] = w->indices + (size_t)(r.y + y) * (size_t)w->width + (size_t)r.x;
        error = liq_write_remapped_image_rows(w->palette, image, (unsigned char **)rows);
    }
    if (image != NULL) liq_image_destroy(image);
    if (error != LIQ_OK)
        return dr_fail(&w->encoding, message, capacity, error == LIQ_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED, "GIF: libimagequant could not build a palette");
    /* After remapping: libimagequant refines the palette on the pixels it maps. */
    const liq_palette *entries = liq_get_palette(w->palette);
    uint8_t palette[256 * 3];
    int count = (int)entries->count, clear = -1;
    for (int i = 0; i < count; i++) {
        palette[3 * i] = entries->entries[i].r;
        palette[3 * i + 1] = entries->entries[i].g;
        palette[3 * i + 2] = entries->entries[i].b;
        if (entries->entries[i].a < 128) clear = i;
    }
    CGIF_FrameConfig frame;
    memset(&frame, 0, sizeof frame);
    frame.attrFlags = CGIF_FRAME_ATTR_USE_LOCAL_TABLE;
    if (keep) {
        int unchanged = clear >= 0 ? clear : count;
        if (unchanged == count) {
            /* The free index (an animation's palette holds at most 255) becomes an entry, so
             * that it lies within the table. */
            memset(palette + 3 * count, 0, 3);
            count++;
        }
        size_t width = (size_t)w->width;
        for (int y = 0; y < w->height; y++) {
            unsigned char *indices = w->indices + width * (size_t)y;
            const uint32_t *now = (const uint32_t *)(const void *)(rgba + width * 4 * (size_t)y);
            const uint32_t *before = (const uint32_t *)(const void *)(w->shown + width * 4 * (size_t)y);
            if (y < r.y || y >= r.y + r.h) {
                memset(indices, unchanged, width);
                continue;
            }
            memset(indices, unchanged, (size_t)r.x);
            memset(indices + r.x + r.w, unchanged, width - (size_t)(r.x + r.w));
            for (int x = r.x; x < r.x + r.w; x++)
                if (now[x] == before[x]) indices[x] = (unsigned char)unchanged;
        }
        frame.attrFlags |= CGIF_FRAME_ATTR_HAS_SET_TRANS;
        frame.transIndex = (uint8_t)unchanged;
        frame.genFlags = CGIF_FRAME_GEN_USE_DIFF_WINDOW;
    } else {
        if (clear >= 0) {
            frame.attrFlags |= CGIF_FRAME_ATTR_HAS_ALPHA;
            frame.transIndex = (uint8_t)clear;
        }
        frame.genFlags = CGIF_FRAME_GEN_USE_TRANSPARENCY | CGIF_FRAME_GEN_USE_DIFF_WINDOW;
    }
    if (animated) {
        size_t row = (size_t)w->width * 4;
        for (int y = r.y; y < r.y + r.h; y++)
            memcpy(w->shown + row * (size_t)y + (size_t)r.x * 4, rgba + row * (size_t)y + (size_t)r.x * 4, (size_t)r.w * 4);
    }
    frame.numLocalPaletteEntries = (uint16_t)count;
    frame.pLocalPalette = palette;
    frame.pImageData = w->indices;
    int centiseconds = (delay_ms + 5) / 10;
    frame.delay = (uint16_t)(centiseconds < 0 ? 0 : centiseconds > 65535 ? 65535 : centiseconds);
    if (cgif_addframe(w->gif, &frame) != CGIF_OK) {
        if (w->encoding != DR_OK) return dr_fail(&w->encoding, message, capacity, w->encoding, "GIF: %s", w->problem);
        return dr_fail(&w->encoding, message, capacity, DR_ENCODE_FAILED, "GIF: cgif could not add the frame");
    }
    w->frames++;
    return DR_OK;
}

static dr_status encode_frame(void *writer, int buffer, int delay_ms, char *message, size_t capacity) {
    gif_writer *w = writer;
    return add_frame(w, w->rgba[buffer], delay_ms, 1, message, capacity);
}

static dr_status gif_end_frame(dr_writer *base, int delay_ms, char *message, size_t capacity) {
    gif_writer *w = (gif_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written != w->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "GIF: a frame ended before its last row");
    if (w->rgba[1] == NULL && (w->rgba[1] = malloc((size_t)w->width * (size_t)w->height * 4)) == NULL)
        return dr_fail(&w->status, message, capacity, DR_OUT_OF_MEMORY, "GIF: out of memory for a second frame");
    int buffer = w->current;
    w->current ^= 1;
    w->written = 0;
    dr_status status = dr_frame_worker_start(&w->worker, buffer, delay_ms, message, capacity);
    if (status != DR_OK) w->status = status;
    return status;
}

static dr_status gif_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    gif_writer *w = (gif_writer *)base;
    (void)out; /* the sink's buffer is `ended` already */
    if (w->status != DR_OK) return w->status;
    dr_status status = dr_frame_worker_wait(&w->worker, message, capacity);
    if (status != DR_OK) return w->status = status;
    if (w->frames == 0) {
        /* A still image: its one frame is encoded here. */
        if (w->written != w->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "GIF: a frame ended before its last row");
        status = add_frame(w, w->rgba[w->current], 0, 0, message, capacity);
        if (status != DR_OK) return w->status = status;
        w->written = 0;
    }
    if (w->written != 0) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "GIF: the last frame is incomplete");
    int result = cgif_close(w->gif);
    w->gif = NULL;
    if (w->encoding != DR_OK) return dr_fail(&w->status, message, capacity, w->encoding, "GIF: %s", w->problem);
    if (result != CGIF_OK) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "GIF: cgif could not end the file");
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
    dr_frame_worker_init(&w->worker, encode_frame, w);
    w->rgba[0] = malloc((size_t)width * (size_t)height * 4);
    w->indices = malloc((size_t)width * (size_t)height);
    w->rows = malloc((size_t)height * 2 * sizeof *w->rows);
    if (w->rgba[0] == NULL || w->indices == NULL || w->rows == NULL) {
        gif_close(&w->base);
        dr_set_message(message, capacity, "out of memory for a %d×%d GIF frame", width, height);
        return DR_OUT_OF_MEMORY;
    }
    *out = &w->base;
    return DR_OK;
}
