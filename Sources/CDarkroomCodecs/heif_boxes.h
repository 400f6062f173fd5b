/*
 * ISOBMFF boxes read from a HEIF in memory, for the checks darkroom makes before libheif decodes
 * (heif_references.c, heif_canvases.c). Sizes are read as libheif reads them: a box stating more
 * than its parent holds ends with its parent.
 */
#ifndef DARKROOM_HEIF_BOXES_H
#define DARKROOM_HEIF_BOXES_H

#include <stddef.h>
#include <stdint.h>

/* `count` (at most 8) big-endian bytes at `p` as a number; more than 32 bits keep the low 64. */
uint64_t dr_be(const unsigned char *p, int count);

/* The next box in [*at, end): its type and payload bounds, *at moved past it; 0 at the end. */
int dr_box_next(const unsigned char *bytes, size_t *at, size_t end, char type[4], size_t *payload, size_t *payload_end);

/* The payload bounds of the first `name` box in [start, end); 0 when there is none. */
int dr_box_find(const unsigned char *bytes, size_t start, size_t end, const char *name, size_t *payload, size_t *payload_end);

#endif
