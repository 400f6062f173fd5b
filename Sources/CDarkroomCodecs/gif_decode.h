#ifndef DARKROOM_GIF_DECODE_H
#define DARKROOM_GIF_DECODE_H

#include "internal.h"

/* What dr_gif_scan finds in a GIF without decoding it (gif_scan.c). */
typedef struct {
    int screen_width, screen_height; /* the logical screen the header states */
    int width, height;               /* the canvas: the screen grown to hold every frame */
    int frames;
    int loop_count;                  /* NETSCAPE2.0 repetitions (0: forever); -1: no such block */
    int has_alpha;                   /* a frame has a transparent index or leaves canvas uncovered */
    int truncated;                   /* the bytes end inside a block */
    int trailing_garbage;            /* an unknown block after the last frame */
} dr_gif_shape;

/* DR_OK; DR_TRUNCATED or DR_CORRUPT when no frame is whole; DR_NOT_AN_IMAGE without GIF's signature. */
dr_status dr_gif_scan(const unsigned char *bytes, size_t length, dr_gif_shape *shape, char *message, size_t capacity);

/*
 * Frames of a GIF composed one at a time on a straight-RGBA canvas (gif_decode.c, on giflib):
 * the previous frame's disposal applied (leave, clear its rectangle to transparent, or restore
 * what was under it), then the frame drawn where its pixels are not transparent. Holds the
 * canvas and, for a frame disposed "to previous", a copy of the rectangle it covers.
 */
typedef struct dr_gif_frames dr_gif_frames;

/* `shape` comes from dr_gif_scan of the same bytes; the caller has checked its size. */
dr_status dr_gif_frames_open(const unsigned char *bytes, size_t length, const dr_gif_shape *shape,
                             uint64_t deadline_ns, dr_gif_frames **out, char *message, size_t capacity);

/* Composes the next frame: *canvas then points at width × height RGBA pixels (valid until the
 * next call), *delay_ms is its delay. *canvas is NULL after the last frame. The bytes are the
 * same as at open; only their address may differ. */
dr_status dr_gif_frames_next(dr_gif_frames *frames, const unsigned char *bytes, const unsigned char **canvas,
                             int *delay_ms, char *message, size_t capacity);

void dr_gif_frames_close(dr_gif_frames *frames);

#endif
