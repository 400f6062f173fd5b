/*
 * Metadata blocks: ownership. (EXIF editing with libexif lives in exif.c.)
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void dr_metadata_keep(unsigned char **to, size_t *to_length, const unsigned char *from, size_t length) {
    if (*to != NULL || length == 0) return;
    unsigned char *copy = malloc(length);
    if (copy == NULL) return;
    memcpy(copy, from, length);
    *to = copy;
    *to_length = length;
}

void dr_metadata_free(dr_metadata *m) {
    if (m == NULL) return;
    free(m->exif);
    free(m->xmp);
    free(m->iptc);
    memset(m, 0, sizeof *m);
}

static size_t read_be(const unsigned char *p, int n) {
    size_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* Each resource: "8BIM", a 2-byte id, a Pascal name padded to even length, a 4-byte size and the
 * data padded to even length. */
void dr_find_iptc_resource(const unsigned char *p, size_t length, dr_metadata *out) {
    size_t at = 0;
    while (at + 12 <= length && memcmp(p + at, "8BIM", 4) == 0) {
        size_t id = read_be(p + at + 4, 2);
        size_t name = (size_t)p[at + 6] + 1;
        if (name & 1) name++;
        size_t size_at = at + 6 + name;
        if (size_at + 4 > length) return;
        size_t size = read_be(p + size_at, 4);
        size_t data = size_at + 4;
        if (size > length - data) return;
        if (id == DR_IPTC_RESOURCE) {
            dr_metadata_keep(&out->iptc, &out->iptc_length, p + data, size);
            return;
        }
        at = data + size + (size & 1);
    }
}
