/* ISOBMFF boxes in memory; see heif_boxes.h. */
#include "heif_boxes.h"

#include <string.h>

uint64_t dr_be(const unsigned char *p, int count) {
    uint64_t v = 0;
    for (int i = 0; i < count; i++) v = v << 8 | p[i];
    return v;
}

int dr_box_next(const unsigned char *bytes, size_t *at, size_t end, char type[4], size_t *payload, size_t *payload_end) {
    if (*at > end || end - *at < 8) return 0;
    uint64_t size = dr_be(bytes + *at, 4), header = 8;
    if (size == 1) {
        if (end - *at < 16) return 0;
        size = dr_be(bytes + *at + 8, 8);
        header = 16;
    } else if (size == 0) {
        size = end - *at;
    }
    if (size < header) return 0;
    if (size > end - *at) size = end - *at; /* as far as its parent reaches: libheif reads no further */
    memcpy(type, bytes + *at + 4, 4);
    *payload = *at + (size_t)header;
    *payload_end = *at + (size_t)size;
    *at = *payload_end;
    return 1;
}

int dr_box_find(const unsigned char *bytes, size_t start, size_t end, const char *name, size_t *payload, size_t *payload_end) {
    char type[4];
    size_t at = start;
    while (dr_box_next(bytes, &at, end, type, payload, payload_end))
        if (memcmp(type, name, 4) == 0) return 1;
    return 0;
}
