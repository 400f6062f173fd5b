/*
 * The canvases a HEIF's grids ('grid') and overlays ('iovl') state, read from their item data
 * before libheif decodes: libheif allocates each canvas at the size its data states, not the size
 * the item's 'ispe' gives, so a grid inside a grid (or a primary grid whose data disagrees with its
 * 'ispe') could ask for far more than the image's pixel limit. heif.c bounds each side already
 * (libheif's per-side limit); this bounds the area. Items are found as libheif finds them: types
 * from 'iinf', data from 'iloc' (in the file or in 'idat'); an item whose data cannot be read here
 * is left to libheif, which then fails on it too.
 */
#include "heif_boxes.h"
#include "internal.h"

#include <string.h>

/* What the check needs of an item's data: the output size comes within the first 16 bytes. */
enum { HEAD_BYTES = 16 };

typedef struct {
    const unsigned char *bytes;
    size_t length;
    size_t idat, idat_end; /* 'idat' payload, or 0/0 */
    size_t iloc, iloc_end;
} heif_file;

/* Up to HEAD_BYTES of item `id`'s data, gathered over its extents as libheif concatenates them;
 * how many were read (0: not found, or stored where this does not look). */
static size_t item_head(const heif_file *f, uint32_t id, unsigned char head[HEAD_BYTES]) {
    const unsigned char *b = f->bytes;
    size_t at = f->iloc, end = f->iloc_end;
    if (end - at < 8) return 0;
    int version = b[at];
    uint32_t sizes = (uint32_t)dr_be(b + at + 4, 2);
    int offset_size = (int)(sizes >> 12), length_size = (int)(sizes >> 8 & 15), base_size = (int)(sizes >> 4 & 15);
    int index_size = version == 1 || version == 2 ? (int)(sizes & 15) : 0;
    if (offset_size > 8 || length_size > 8 || base_size > 8 || index_size > 8) return 0;
    int id_bytes = version < 2 ? 2 : 4;
    at += 6;
    if (end - at < (size_t)id_bytes) return 0;
    uint64_t items = dr_be(b + at, id_bytes);
    at += (size_t)id_bytes;
    for (uint64_t i = 0; i < items; i++) {
        size_t fixed = (size_t)id_bytes + (version >= 1 ? 2 : 0) + 2 + (size_t)base_size + 2;
        if (end - at < fixed) return 0;
        uint32_t item = (uint32_t)dr_be(b + at, id_bytes);
        at += (size_t)id_bytes;
        int method = version >= 1 ? (int)(dr_be(b + at, 2) & 15) : 0;
        at += version >= 1 ? 2 : 0;
        at += 2; /* data_reference_index: 0, this file */
        uint64_t base = dr_be(b + at, base_size);
        at += (size_t)base_size;
        uint64_t extents = dr_be(b + at, 2);
        at += 2;
        size_t extent_bytes = (size_t)index_size + (size_t)offset_size + (size_t)length_size;
        if (item != id) {
            if (extents > (end - at) / (extent_bytes ? extent_bytes : 1)) return 0;
            at += (size_t)extents * extent_bytes;
            continue;
        }
        size_t got = 0;
        for (uint64_t e = 0; e < extents && got < HEAD_BYTES; e++) {
            if (end - at < extent_bytes) return got;
            at += (size_t)index_size;
            uint64_t offset = dr_be(b + at, offset_size), length = dr_be(b + at + offset_size, length_size);
            at += (size_t)offset_size + (size_t)length_size;
            size_t from = method == 0 ? 0 : method == 1 ? f->idat : SIZE_MAX, to = method == 0 ? f->length : f->idat_end;
            if (from == SIZE_MAX || length == 0 || base + offset < base || base + offset > to - from) return got;
            size_t start = from + (size_t)(base + offset), available = to - start;
            size_t take = length < available ? (size_t)length : available;
            if (take > HEAD_BYTES - got) take = HEAD_BYTES - got;
            memcpy(head + got, b + start, take);
            got += take;
        }
        return got;
    }
    return 0;
}

/* A grid's or overlay's stated canvas (libheif's ImageGrid and ImageOverlay parsing); 0 when the
 * data is too short to state one. */
static int canvas_size(const unsigned char *head, size_t length, int overlay, uint64_t *width, uint64_t *height) {
    if (length < 2) return 0;
    size_t at = overlay ? 2 + 8 : 4; /* version, flags, then the fill colour (iovl) or rows and columns (grid) */
    int field = head[1] & 1 ? 4 : 2;
    if (length < at + 2 * (size_t)field) return 0;
    *width = dr_be(head + at, field);
    *height = dr_be(head + at + field, field);
    return 1;
}

dr_status dr_heif_check_canvases(const unsigned char *bytes, size_t length, uint64_t max_pixels, char *message, size_t capacity) {
    heif_file f = {.bytes = bytes, .length = length};
    size_t meta, meta_end, iinf, iinf_end;
    if (!dr_box_find(bytes, 0, length, "meta", &meta, &meta_end) || meta_end - meta < 4) return DR_OK;
    if (!dr_box_find(bytes, meta + 4, meta_end, "iinf", &iinf, &iinf_end) || iinf_end - iinf < 6) return DR_OK;
    if (!dr_box_find(bytes, meta + 4, meta_end, "iloc", &f.iloc, &f.iloc_end)) return DR_OK;
    if (!dr_box_find(bytes, meta + 4, meta_end, "idat", &f.idat, &f.idat_end)) f.idat = f.idat_end = 0;
    char type[4];
    size_t at = iinf + 4 + (bytes[iinf] == 0 ? 2 : 4), infe, infe_end;
    while (dr_box_next(bytes, &at, iinf_end, type, &infe, &infe_end)) {
        if (memcmp(type, "infe", 4) != 0 || infe_end - infe < 4) continue;
        int version = bytes[infe];
        size_t id_bytes = version == 2 ? 2 : version == 3 ? 4 : 0;
        if (id_bytes == 0 || infe_end - infe < 4 + id_bytes + 2 + 4) continue;
        const unsigned char *item_type = bytes + infe + 4 + id_bytes + 2;
        int grid = memcmp(item_type, "grid", 4) == 0, overlay = memcmp(item_type, "iovl", 4) == 0;
        if (!grid && !overlay) continue;
        uint32_t id = (uint32_t)dr_be(bytes + infe + 4, (int)id_bytes);
        unsigned char head[HEAD_BYTES];
        uint64_t width, height;
        if (!canvas_size(head, item_head(&f, id, head), overlay, &width, &height)) continue;
        if (width * height > max_pixels) { /* each at most 32 bits: no overflow */
            dr_set_message(message, capacity, "HEIF: item %u, %s of %llu×%llu pixels, is over the limit of %llu pixels", id,
                           grid ? "a grid" : "an overlay", (unsigned long long)width, (unsigned long long)height,
                           (unsigned long long)max_pixels);
            return DR_TOO_LARGE;
        }
    }
    return DR_OK;
}
