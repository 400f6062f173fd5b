/*
 * GIF as a still image: the header from dr_gif_scan, the first frame composed on the canvas
 * (the whole animation goes through dr_animation, animation.c). The canvas is held whole (GIF
 * interlacing and frame rectangles do not come in row order); dr_held_bytes counts it.
 */
#include "gif_decode.h"

#include <stdlib.h>
#include <string.h>

static void describe(const dr_gif_shape *shape, dr_info *info) {
    info->format = DR_FORMAT_GIF;
    info->width = shape->width;
    info->height = shape->height;
    info->has_alpha = shape->has_alpha;
    info->channels = shape->has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->color_space = DR_SPACE_PALETTE;
    info->pages = shape->frames;
}

dr_status dr_gif_read_info(const unsigned char *bytes, size_t length, dr_info *info, char *message, size_t capacity) {
    dr_gif_shape shape;
    dr_status status = dr_gif_scan(bytes, length, &shape, message, capacity);
    if (status == DR_OK) describe(&shape, info);
    return status;
}

typedef struct {
    dr_reader base; /* first: the generic reader */
    dr_gif_frames *frames;
    const unsigned char *canvas;
    int canvas_width, next_row, crop_x, crop_y;
} gif_reader;

static void gif_reader_close(dr_reader *base) {
    gif_reader *r = (gif_reader *)base;
    dr_gif_frames_close(r->frames);
    free(r);
}

static dr_status gif_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count, char *message,
                               size_t capacity) {
    gif_reader *r = (gif_reader *)base;
    if (r->next_row + count > r->base.height) {
        dr_set_message(message, capacity, "GIF: more rows asked for than the image has");
        return DR_CORRUPT;
    }
    for (int i = 0; i < count; i++) {
        const unsigned char *from = r->canvas + ((size_t)(r->crop_y + r->next_row + i) * (size_t)r->canvas_width + (size_t)r->crop_x) * 4;
        unsigned char *to = rows + stride * (size_t)i;
        if (r->base.channels == 4) {
            memcpy(to, from, (size_t)r->base.width * 4);
        } else {
            for (int x = 0; x < r->base.width; x++) memcpy(to + 3 * x, from + 4 * x, 3);
        }
    }
    r->next_row += count;
    return DR_OK;
}

dr_status dr_gif_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options, dr_info *info,
                             dr_reader **out, char *message, size_t capacity) {
    dr_gif_shape shape;
    dr_status status = dr_gif_scan(bytes, length, &shape, message, capacity);
    if (status != DR_OK) return status;
    describe(&shape, info);
    if (!dr_fits(info, options->max_pixels)) return dr_too_large(info, options->max_pixels, message, capacity);
    if (shape.truncated) {
        dr_set_message(message, capacity, "GIF data ends early (truncated file?)");
        return DR_TRUNCATED;
    }
    gif_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return DR_OUT_OF_MEMORY;
    r->base.format = DR_FORMAT_GIF;
    r->base.read_rows = gif_read_rows;
    r->base.close = gif_reader_close;
    r->base.bytes = bytes;
    r->canvas_width = shape.width;
    status = dr_gif_frames_open(bytes, length, &shape, options->deadline_ns, &r->frames, message, capacity);
    int delay = 0;
    if (status == DR_OK) status = dr_gif_frames_next(r->frames, bytes, &r->canvas, &delay, message, capacity);
    if (status == DR_OK && r->canvas == NULL) {
        dr_set_message(message, capacity, "GIF: the file holds no image");
        status = DR_CORRUPT;
    }
    if (status != DR_OK) {
        gif_reader_close(&r->base);
        return status;
    }
    dr_reader_window(&r->base, options, info, &r->crop_x, &r->crop_y);
    r->base.channels = info->channels;
    r->base.bytes_per_sample = 1;
    *out = &r->base;
    return DR_OK;
}
