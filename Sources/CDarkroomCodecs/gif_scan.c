/*
 * A GIF's structure read without decoding a pixel: its canvas, frame count, loop count and
 * whether any pixel can be transparent. The header's size alone is not the canvas: a frame may
 * reach past the logical screen, and the canvas grows to hold it (as browsers and libnsgif do),
 * so the pixel limit is checked on what will really be allocated.
 */
#include "gif_decode.h"

#include <string.h>

static unsigned le16(const unsigned char *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* Skips data sub-blocks from *at; 0 when the bytes end first. */
static int skip_blocks(const unsigned char *bytes, size_t length, size_t *at) {
    while (*at < length) {
        unsigned n = bytes[*at];
        *at += 1;
        if (n == 0) return 1;
        *at += n;
    }
    return 0;
}

dr_status dr_gif_scan(const unsigned char *bytes, size_t length, dr_gif_shape *shape, char *message, size_t capacity) {
    memset(shape, 0, sizeof *shape);
    shape->loop_count = -1;
    if (length < 13 || (memcmp(bytes, "GIF87a", 6) != 0 && memcmp(bytes, "GIF89a", 6) != 0)) {
        dr_set_message(message, capacity, "GIF: the header ends early (truncated file?)");
        return length < 13 ? DR_TRUNCATED : DR_NOT_AN_IMAGE;
    }
    shape->screen_width = (int)le16(bytes + 6);
    shape->screen_height = (int)le16(bytes + 8);
    shape->width = shape->screen_width;
    shape->height = shape->screen_height;
    size_t at = 13;
    if (bytes[10] & 0x80) at += 3u << ((bytes[10] & 7) + 1);
    int transparent_next = 0;
    for (;;) {
        if (at >= length) { shape->truncated = 1; break; }
        unsigned char kind = bytes[at++];
        if (kind == 0x3B) break;
        if (kind == 0x21) {
            if (at >= length) { shape->truncated = 1; break; }
            unsigned char label = bytes[at++];
            if (label == 0xF9 && at + 5 < length && bytes[at] >= 4) transparent_next = bytes[at + 1] & 1;
            if (label == 0xFF && at + 12 < length && bytes[at] == 11 &&
                (memcmp(bytes + at + 1, "NETSCAPE2.0", 11) == 0 || memcmp(bytes + at + 1, "ANIMEXTS1.0", 11) == 0)) {
                size_t sub = at + 12;
                if (sub + 3 < length && bytes[sub] >= 3 && bytes[sub + 1] == 1) shape->loop_count = (int)le16(bytes + sub + 2);
            }
            if (!skip_blocks(bytes, length, &at)) { shape->truncated = 1; break; }
            continue;
        }
        if (kind != 0x2C) {
            shape->trailing_garbage = 1;
            break;
        }
        if (at + 9 > length) { shape->truncated = 1; break; }
        const unsigned char *d = bytes + at;
        int left = (int)le16(d), top = (int)le16(d + 2), w = (int)le16(d + 4), h = (int)le16(d + 6);
        at += 9;
        if (d[8] & 0x80) at += 3u << ((d[8] & 7) + 1);
        at += 1; /* LZW minimum code size */
        if (at > length || !skip_blocks(bytes, length, &at)) { shape->truncated = 1; break; }
        if (left + w > shape->width) shape->width = left + w;
        if (top + h > shape->height) shape->height = top + h;
        /* A frame that leaves part of the canvas uncovered leaves it transparent. */
        if (transparent_next || left > 0 || top > 0 || left + w < shape->screen_width || top + h < shape->screen_height)
            shape->has_alpha = 1;
        transparent_next = 0;
        shape->frames++;
    }
    if (shape->frames == 0) {
        if (shape->truncated) {
            dr_set_message(message, capacity, "GIF data ends before its first image (truncated file?)");
            return DR_TRUNCATED;
        }
        dr_set_message(message, capacity, "GIF: the file holds no image");
        return DR_CORRUPT;
    }
    /* Past the logical screen nothing is drawn until a frame covers it. */
    if (shape->width != shape->screen_width || shape->height != shape->screen_height) shape->has_alpha = 1;
    if (shape->width == 0 || shape->height == 0) {
        dr_set_message(message, capacity, "GIF: the image is empty (%d×%d)", shape->width, shape->height);
        return DR_CORRUPT;
    }
    return DR_OK;
}
