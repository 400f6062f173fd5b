/*
 * EXIF in TIFF files. A TIFF holds its EXIF where the EXIF block of a JPEG keeps it, because
 * that block is itself a small TIFF: IFD0's descriptive tags (Make, Artist, Orientation, ...)
 * next to the pixels' own, and the EXIF, GPS and interoperability IFDs behind IFD0's pointers.
 *
 * In, the picture's tags are copied out of the file into a TIFF stream of their own, the block
 * the JPEG and PNG readers hand on (its thumbnail and pixel tags left behind). Out, the block
 * (already brought up to date by dr_exif_rewrite) goes back the other way: its IFD0 text tags
 * and resolution into the output's directory, its EXIF and GPS IFDs copied behind the header, with the
 * directory's EXIFIFD and GPSIFD tags pointing at them.
 *
 * The IFDs are copied entry by entry, value bytes verbatim (byte-swapped when the two files'
 * byte orders differ), rather than through libtiff's typed fields: libtiff turns rationals into
 * floats and knows no maker's tags, and the copy should lose neither. Classic TIFF only (a
 * BigTIFF keeps its EXIF to itself); every offset is checked against the source's length.
 */
#include "tiff_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_EXIF_IFD 0x8769
#define TAG_GPS_IFD 0x8825
#define TAG_INTEROP_IFD 0xa005
#define MAX_ENTRIES 1024
#define MAX_BLOCK ((size_t)1 << 20) /* what one EXIF block may grow to */

/* Where IFDs are read from: a file in memory or through a descriptor. */
typedef struct {
    const unsigned char *bytes;
    int fd, file;
    uint64_t length;
    int big; /* Motorola byte order */
} source;

static int source_read(const source *s, uint64_t at, void *into, size_t n) {
    return dr_read_at(s->file ? NULL : s->bytes, s->fd, s->length, at, into, n);
}

static uint32_t get(const unsigned char *p, int size, int big) {
    uint32_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint32_t)p[big ? i : size - 1 - i] << (8 * (size - 1 - i));
    return v;
}

static void put(unsigned char *p, uint32_t v, int size, int big) {
    for (int i = 0; i < size; i++) p[big ? i : size - 1 - i] = (unsigned char)(v >> (8 * (size - 1 - i)));
}

/* Bytes of one element of a TIFF field type, and how many of them one value holds (0: unknown). */
static int element_size(uint16_t type, int *per_value) {
    *per_value = type == 5 || type == 10 ? 2 : 1; /* rationals: two LONGs */
    switch (type) {
    case 1: case 2: case 6: case 7: return 1;
    case 3: case 8: return 2;
    case 4: case 5: case 9: case 10: case 11: case 13: return 4;
    case 12: return 8;
    default: return 0;
    }
}

static void swap_elements(unsigned char *p, size_t n, int size) {
    if (size < 2) return;
    for (size_t i = 0; i + (size_t)size <= n; i += (size_t)size)
        for (int a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[i + (size_t)a];
            p[i + (size_t)a] = p[i + (size_t)b];
            p[i + (size_t)b] = t;
        }
}

/* Where copies go: `out` lands at file offset `base`, in byte order `big`. */
typedef struct {
    dr_buffer *out;
    uint64_t base;
    int big;
} target;

static int pad_even(target *t) {
    static const unsigned char zero = 0;
    return t->out->length % 2 == 0 || dr_buffer_append(t->out, &zero, 1);
}

/* IFD0's tags that describe the picture rather than its pixels (what a camera's EXIF block
 * holds in IFD0), and its pointers. */
static int picture_tag(uint16_t tag) {
    switch (tag) {
    case 0x010e: case 0x010f: case 0x0110: case 0x0112: case 0x011a: case 0x011b: case 0x0128: case 0x0131:
    case 0x0132: case 0x013b: case 0x013e: case 0x013f: case 0x0211: case 0x0214: case 0x8298:
    case TAG_EXIF_IFD: case TAG_GPS_IFD: return 1;
    default: return 0;
    }
}

/* The IFD a pointer tag leads to from an IFD of `kind` (0 IFD0, 1 EXIF; -1: not a pointer there). */
static int pointer_kind(uint16_t tag, int kind) {
    if (kind == 0 && (tag == TAG_EXIF_IFD || tag == TAG_GPS_IFD)) return 1;
    if (kind == 1 && tag == TAG_INTEROP_IFD) return 2;
    return -1;
}

/*
 * Appends a copy of the source's IFD at `offset` (of `kind`: IFD0 keeps only its picture tags)
 * with its values and the IFDs it points to; returns the copy's file offset, 0 when nothing was
 * copied (no readable entry, or no room).
 */
static uint32_t copy_ifd(const source *s, uint32_t offset, target *t, int kind, int depth) {
    unsigned char head[2];
    if (depth > 2 || offset < 8 || !source_read(s, offset, head, 2)) return 0;
    uint32_t count = get(head, 2, s->big);
    if (count == 0 || count > MAX_ENTRIES) return 0;
    unsigned char *entries = malloc(12 * (size_t)count);
    uint32_t *pointers = calloc(count, sizeof *pointers); /* copied sub-IFDs, by entry */
    unsigned char *keep = calloc(count, 1);
    uint32_t result = 0;
    if (entries == NULL || pointers == NULL || keep == NULL || !source_read(s, offset + 2, entries, 12 * (size_t)count))
        goto done;
    /* The sub-IFDs first, so that this IFD is written with their offsets known. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *e = entries + 12 * (size_t)i;
        uint16_t tag = (uint16_t)get(e, 2, s->big), type = (uint16_t)get(e + 2, 2, s->big);
        int per_value, size = element_size(type, &per_value);
        uint64_t bytes = (uint64_t)get(e + 4, 4, s->big) * (uint64_t)size * (uint64_t)per_value;
        if (size == 0 || bytes == 0 || bytes > MAX_BLOCK / 4 || (kind == 0 && !picture_tag(tag))) continue;
        int sub = pointer_kind(tag, kind);
        if (sub < 0 && (tag == TAG_EXIF_IFD || tag == TAG_GPS_IFD || tag == TAG_INTEROP_IFD)) continue;
        if (sub >= 0) {
            if (bytes != 4) continue;
            pointers[i] = copy_ifd(s, get(e + 8, 4, s->big), t, sub, depth + 1);
            if (pointers[i] == 0) continue;
        }
        keep[i] = 1;
        kept++;
    }
    if (kept == 0 || !pad_even(t)) goto done;
    size_t at = t->out->length;
    size_t ifd_bytes = 2 + 12 * (size_t)kept + 4;
    if (t->out->length + ifd_bytes > MAX_BLOCK) goto done;
    unsigned char *ifd = calloc(1, ifd_bytes);
    if (ifd == NULL || !dr_buffer_append(t->out, ifd, ifd_bytes)) {
        free(ifd);
        goto done;
    }
    put(ifd, kept, 2, t->big);
    unsigned char *w = ifd + 2;
    int swap = s->big != t->big;
    for (uint32_t i = 0; i < count; i++) {
        if (!keep[i]) continue;
        const unsigned char *e = entries + 12 * (size_t)i;
        uint16_t type = (uint16_t)get(e + 2, 2, s->big);
        uint32_t n = get(e + 4, 4, s->big);
        int per_value, size = element_size(type, &per_value);
        size_t bytes = (size_t)n * (size_t)size * (size_t)per_value;
        put(w, get(e, 2, s->big), 2, t->big);
        put(w + 2, type, 2, t->big);
        put(w + 4, n, 4, t->big);
        if (pointers[i] != 0) {
            put(w + 8, pointers[i], 4, t->big);
        } else if (bytes <= 4) {
            memcpy(w + 8, e + 8, 4);
            if (swap) swap_elements(w + 8, bytes, size);
        } else {
            unsigned char *value = malloc(bytes);
            int ok = value != NULL && source_read(s, get(e + 8, 4, s->big), value, bytes) && pad_even(t) &&
                     t->out->length + bytes <= MAX_BLOCK;
            uint64_t place = t->base + t->out->length;
            if (ok && swap) swap_elements(value, bytes, size);
            ok = ok && place <= UINT32_MAX && dr_buffer_append(t->out, value, bytes);
            free(value);
            if (!ok) { /* an unreadable value: the entry is left out */
                kept--;
                continue;
            }
            put(w + 8, (uint32_t)place, 4, t->big);
        }
        w += 12;
    }
    if (kept > 0) {
        put(ifd, kept, 2, t->big);
        memset(ifd + 2 + 12 * (size_t)kept, 0, 4); /* no next IFD */
        memcpy(t->out->data + at, ifd, 2 + 12 * (size_t)kept + 4);
        result = (uint32_t)(t->base + at);
    }
    free(ifd);
done:
    free(entries);
    free(pointers);
    free(keep);
    return result;
}

/* Whether IFD0 of the source says anything of the picture worth an EXIF block: its pointers or
 * a text tag (the pixel-describing ones, such as Orientation alone, travel without one). */
static int worth_a_block(const source *s, uint32_t offset) {
    unsigned char head[2];
    if (!source_read(s, offset, head, 2)) return 0;
    uint32_t count = get(head, 2, s->big);
    for (uint32_t i = 0; i < count && i < MAX_ENTRIES; i++) {
        unsigned char e[2];
        if (!source_read(s, offset + 2 + 12 * (uint64_t)i, e, 2)) return 0;
        switch (get(e, 2, s->big)) {
        case 0x010e: case 0x010f: case 0x0110: case 0x0132: case 0x013b: case 0x8298: case TAG_EXIF_IFD:
        case TAG_GPS_IFD: return 1;
        default: break;
        }
    }
    return 0;
}

int dr_tiff_exif_collect(const dr_tiff_io *io, unsigned char **out, size_t *length) {
    *out = NULL;
    *length = 0;
    source s = {.bytes = io->bytes, .fd = io->fd, .file = io->file, .length = io->length};
    unsigned char header[8];
    if (!s.file && s.bytes == NULL) return 0;
    if (!source_read(&s, 0, header, 8)) return 0;
    s.big = header[0] == 'M';
    if (get(header + 2, 2, s.big) != 42) return 0; /* BigTIFF (43) or not a TIFF */
    uint32_t ifd0 = get(header + 4, 4, s.big);
    if (!worth_a_block(&s, ifd0)) return 0;
    dr_buffer block = {0};
    unsigned char stream[8] = {s.big ? 'M' : 'I', s.big ? 'M' : 'I'};
    put(stream + 2, 42, 2, s.big);
    if (!dr_buffer_append(&block, stream, 8)) return 0;
    target t = {.out = &block, .base = 0, .big = s.big};
    uint32_t copied = copy_ifd(&s, ifd0, &t, 0, 0);
    if (copied == 0) {
        dr_buffer_free(&block);
        return 0;
    }
    put(block.data + 4, copied, 4, s.big);
    *out = block.data;
    *length = block.length;
    return 1;
}

/* IFD0 text tags libtiff writes for us (with the resolution; the rest of IFD0 describes pixels
 * the writer knows). */
static int text_tag(uint16_t tag) {
    return tag == 0x010e || tag == 0x010f || tag == 0x0110 || tag == 0x0131 || tag == 0x0132 || tag == 0x013b ||
           tag == 0x8298;
}

dr_status dr_tiff_exif_store(TIFF *tif, dr_tiff_io *io, const unsigned char *exif, size_t length) {
    source s = {.bytes = exif, .length = length};
    if (length < 8) return DR_OK;
    s.big = exif[0] == 'M';
    if (get(exif + 2, 2, s.big) != 42) return DR_OK;
    uint32_t ifd0 = get(exif + 4, 4, s.big);
    unsigned char head[2];
    if (!source_read(&s, ifd0, head, 2)) return DR_OK;
    uint32_t count = get(head, 2, s.big);
    dr_buffer block = {0};
    /* Behind what is written so far (the header, at writer open), on an even offset. */
    target t = {.out = &block, .base = (io->out->length + 1) & ~(uint64_t)1, .big = dr_tiff.TIFFIsBigEndian(tif) != 0};
    uint32_t exif_ifd = 0, gps_ifd = 0;
    for (uint32_t i = 0; i < count && i < MAX_ENTRIES; i++) {
        unsigned char e[12];
        if (!source_read(&s, ifd0 + 2 + 12 * (uint64_t)i, e, 12)) break;
        uint16_t tag = (uint16_t)get(e, 2, s.big), type = (uint16_t)get(e + 2, 2, s.big);
        uint32_t n = get(e + 4, 4, s.big);
        if (tag == TAG_EXIF_IFD || tag == TAG_GPS_IFD) {
            uint32_t copied = copy_ifd(&s, get(e + 8, 4, s.big), &t, 1, 1);
            if (tag == TAG_EXIF_IFD) exif_ifd = copied; else gps_ifd = copied;
        } else if ((tag == 0x011a || tag == 0x011b) && type == 5 && n == 1) {
            unsigned char r[8];
            if (source_read(&s, get(e + 8, 4, s.big), r, 8) && get(r + 4, 4, s.big) != 0)
                dr_tiff.TIFFSetField(tif, tag, (float)((double)get(r, 4, s.big) / get(r + 4, 4, s.big)));
        } else if (tag == 0x0128 && type == 3 && n == 1) {
            uint32_t unit = get(e + 8, 2, s.big);
            if (unit >= 1 && unit <= 3) dr_tiff.TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, (uint16_t)unit);
        } else if (text_tag(tag) && type == 2 && n > 0 && n <= 65536) {
            char *text = calloc(1, (size_t)n + 1);
            if (text == NULL) continue;
            if (n <= 4 ? (memcpy(text, e + 8, n), 1) : source_read(&s, get(e + 8, 4, s.big), text, n))
                dr_tiff.TIFFSetField(tif, tag, text);
            free(text);
        }
    }
    dr_status status = DR_OK;
    if (block.length > 0) {
        if (!dr_tiff_write_at(io, t.base, block.data, block.length)) {
            status = io->status != DR_OK ? io->status : DR_OUT_OF_MEMORY;
        } else {
            if (exif_ifd != 0) dr_tiff.TIFFSetField(tif, TIFFTAG_EXIFIFD, (uint64_t)exif_ifd);
            if (gps_ifd != 0) dr_tiff.TIFFSetField(tif, TIFFTAG_GPSIFD, (uint64_t)gps_ifd);
        }
    }
    dr_buffer_free(&block);
    return status;
}
