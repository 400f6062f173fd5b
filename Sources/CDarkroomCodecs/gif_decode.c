/*
 * GIF frames, decoded by giflib one frame at a time (its low-level API: no frame is kept, and
 * DGifGetImageHeader, unlike DGifGetImageDesc, keeps no record per frame) and composed on the
 * canvas as the GIF89a specification says. giflib reads from memory through a callback; it
 * returns error codes and never longjmps or prints.
 */
#include "gif_decode.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

struct dr_gif_frames {
    GifFileType *gif;
    const unsigned char *bytes;
    size_t length, offset;
    int width, height;
    unsigned char *canvas;             /* straight RGBA */
    unsigned char *saved;              /* the rectangle under a frame disposed "to previous" */
    size_t saved_capacity;
    unsigned char *line;               /* one row of palette indices */
    int disposal, dx, dy, dw, dh;      /* the last frame's disposal and (clipped) rectangle */
    int transparent_frame;             /* the last frame had a transparent index */
    unsigned char background[4];       /* the screen's background colour, or transparent */
    GraphicsControlBlock control;      /* of the frame to come */
    int frames, done, failed;
    uint64_t deadline_ns;
};

static int gif_input(GifFileType *gif, GifByteType *into, int n) {
    dr_gif_frames *d = gif->UserData;
    size_t left = d->length - d->offset, take = (size_t)n < left ? (size_t)n : left;
    memcpy(into, d->bytes + d->offset, take);
    d->offset += take;
    return (int)take;
}

static dr_status gif_error(dr_gif_frames *d, int code, char *message, size_t capacity) {
    if (d != NULL) d->failed = 1;
    const char *text = GifErrorString(code);
    switch (code) {
    case D_GIF_ERR_READ_FAILED:
    case D_GIF_ERR_EOF_TOO_SOON:
        dr_set_message(message, capacity, "GIF data ends early (truncated file?)");
        return DR_TRUNCATED;
    case D_GIF_ERR_NOT_ENOUGH_MEM:
        dr_set_message(message, capacity, "out of memory decoding GIF");
        return DR_OUT_OF_MEMORY;
    case D_GIF_ERR_NOT_GIF_FILE:
        dr_set_message(message, capacity, "not a GIF file");
        return DR_NOT_AN_IMAGE;
    default:
        dr_set_message(message, capacity, "GIF: corrupt data (%s)", text != NULL ? text : "giflib error");
        return DR_CORRUPT;
    }
}

static void reset_control(GraphicsControlBlock *control) {
    memset(control, 0, sizeof *control);
    control->TransparentColor = NO_TRANSPARENT_COLOR;
}

dr_status dr_gif_frames_open(const unsigned char *bytes, size_t length, const dr_gif_shape *shape,
                             uint64_t deadline_ns, dr_gif_frames **out, char *message, size_t capacity) {
    *out = NULL;
    dr_gif_frames *d = calloc(1, sizeof *d);
    if (d == NULL) return DR_OUT_OF_MEMORY;
    d->bytes = bytes;
    d->length = length;
    d->width = shape->width;
    d->height = shape->height;
    d->deadline_ns = deadline_ns;
    reset_control(&d->control);
    d->canvas = calloc((size_t)d->width * (size_t)d->height, 4);
    d->line = malloc(65536);
    if (d->canvas == NULL || d->line == NULL) {
        dr_gif_frames_close(d);
        dr_set_message(message, capacity, "out of memory for a %d×%d GIF canvas", shape->width, shape->height);
        return DR_OUT_OF_MEMORY;
    }
    int error = 0;
    d->gif = DGifOpen(d, gif_input, &error);
    if (d->gif == NULL) {
        dr_status status = gif_error(NULL, error, message, capacity);
        dr_gif_frames_close(d);
        return status;
    }
    const ColorMapObject *map = d->gif->SColorMap;
    if (map != NULL && d->gif->SBackGroundColor < map->ColorCount) {
        const GifColorType *c = &map->Colors[d->gif->SBackGroundColor];
        d->background[0] = c->Red;
        d->background[1] = c->Green;
        d->background[2] = c->Blue;
        d->background[3] = 255;
    }
    *out = d;
    return DR_OK;
}

void dr_gif_frames_close(dr_gif_frames *d) {
    if (d == NULL) return;
    if (d->gif != NULL) {
        int error = 0;
        DGifCloseFile(d->gif, &error);
    }
    free(d->canvas);
    free(d->saved);
    free(d->line);
    free(d);
}

/* Undoes the last frame as its disposal says, before the next is drawn. "Background" is the
 * background colour of the global colour table, or transparent where the frame had a
 * transparent index (or there is no such colour), as libnsgif (libvips' GIF reader) does. */
static void dispose(dr_gif_frames *d) {
    size_t row = (size_t)d->dw * 4;
    static const unsigned char clear[4] = {0, 0, 0, 0};
    const unsigned char *fill = d->transparent_frame ? clear : d->background;
    for (int y = 0; y < d->dh && row > 0; y++) {
        unsigned char *at = d->canvas + ((size_t)(d->dy + y) * (size_t)d->width + (size_t)d->dx) * 4;
        if (d->disposal == DISPOSE_BACKGROUND)
            for (int x = 0; x < d->dw; x++) memcpy(at + 4 * x, fill, 4);
        else if (d->disposal == DISPOSE_PREVIOUS)
            memcpy(at, d->saved + row * (size_t)y, row);
    }
    d->disposal = DISPOSAL_UNSPECIFIED;
}

/* Keeps the rectangle a frame disposed "to previous" will be drawn over. */
static int save_rectangle(dr_gif_frames *d) {
    size_t row = (size_t)d->dw * 4, need = row * (size_t)d->dh;
    if (need > d->saved_capacity) {
        unsigned char *grown = realloc(d->saved, need);
        if (grown == NULL) return 0;
        d->saved = grown;
        d->saved_capacity = need;
    }
    for (int y = 0; y < d->dh; y++)
        memcpy(d->saved + row * (size_t)y, d->canvas + ((size_t)(d->dy + y) * (size_t)d->width + (size_t)d->dx) * 4, row);
    return 1;
}

/* Reads the extensions before the next image; 0 at the trailer. */
static dr_status next_image(dr_gif_frames *d, int *found, char *message, size_t capacity) {
    *found = 0;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(d->gif, &type) == GIF_ERROR) {
            /* Frames whole and the trailer missing: what many writers leave. */
            if (d->frames > 0 && d->offset >= d->length) return DR_OK;
            return gif_error(d, d->gif->Error, message, capacity);
        }
        if (type == TERMINATE_RECORD_TYPE) return DR_OK;
        if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageHeader(d->gif) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
            *found = 1;
            return DR_OK;
        }
        if (type != EXTENSION_RECORD_TYPE) {
            if (d->frames > 0) return DR_OK; /* bytes after the last frame that are no block */
            d->failed = 1;
            dr_set_message(message, capacity, "GIF: corrupt data (an unknown block)");
            return DR_CORRUPT;
        }
        int code = 0;
        GifByteType *block = NULL;
        if (DGifGetExtension(d->gif, &code, &block) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
        if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4)
            DGifExtensionToGCB(block[0], block + 1, &d->control);
        while (block != NULL)
            if (DGifGetExtensionNext(d->gif, &block) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
    }
}

dr_status dr_gif_frames_next(dr_gif_frames *d, const unsigned char *bytes, const unsigned char **canvas,
                             int *delay_ms, char *message, size_t capacity) {
    *canvas = NULL;
    *delay_ms = 0;
    if (d->failed) {
        dr_set_message(message, capacity, "the GIF reader failed earlier");
        return DR_CORRUPT;
    }
    if (d->done) return DR_OK;
    d->bytes = bytes;
    if (d->deadline_ns != 0 && dr_monotonic_ns() > d->deadline_ns) {
        d->failed = 1;
        dr_set_message(message, capacity, "decoding ran past the time limit");
        return DR_CANCELLED;
    }
    int found = 0;
    dr_status status = next_image(d, &found, message, capacity);
    if (status != DR_OK) return status;
    if (!found) {
        d->done = 1;
        return DR_OK;
    }
    dispose(d);
    const GifImageDesc *desc = &d->gif->Image;
    const ColorMapObject *map = desc->ColorMap != NULL ? desc->ColorMap : d->gif->SColorMap;
    int x0 = desc->Left, y0 = desc->Top, w = desc->Width, h = desc->Height;
    d->dx = x0 < d->width ? x0 : d->width;
    d->dy = y0 < d->height ? y0 : d->height;
    d->dw = x0 + w <= d->width ? w : d->width - d->dx;
    d->dh = y0 + h <= d->height ? h : d->height - d->dy;
    d->disposal = d->control.DisposalMode;
    if (d->disposal == DISPOSE_PREVIOUS && !save_rectangle(d)) {
        d->failed = 1;
        dr_set_message(message, capacity, "out of memory decoding GIF");
        return DR_OUT_OF_MEMORY;
    }
    int transparent = d->control.TransparentColor, colors = map != NULL ? map->ColorCount : 0;
    d->transparent_frame = transparent != NO_TRANSPARENT_COLOR;
    if ((long)w * (long)h == 0) {
        /* No pixel to read: skip the image's data blocks. */
        int size = 0;
        GifByteType *block = NULL;
        if (DGifGetCode(d->gif, &size, &block) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
        while (block != NULL)
            if (DGifGetCodeNext(d->gif, &block) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
    }
    static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    int passes = desc->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes && w > 0; pass++) {
        for (int y = desc->Interlace ? start[pass] : 0; y < h; y += desc->Interlace ? step[pass] : 1) {
            if (DGifGetLine(d->gif, d->line, w) == GIF_ERROR) return gif_error(d, d->gif->Error, message, capacity);
            if (y0 + y >= d->height) continue;
            unsigned char *row = d->canvas + ((size_t)(y0 + y) * (size_t)d->width + (size_t)x0) * 4;
            for (int x = 0; x < d->dw; x++) {
                int index = d->line[x];
                if (index == transparent || index >= colors) continue;
                const GifColorType *c = &map->Colors[index];
                row[4 * x] = c->Red;
                row[4 * x + 1] = c->Green;
                row[4 * x + 2] = c->Blue;
                row[4 * x + 3] = 255;
            }
        }
    }
    *delay_ms = d->control.DelayTime * 10;
    reset_control(&d->control);
    d->frames++;
    *canvas = d->canvas;
    return DR_OK;
}
