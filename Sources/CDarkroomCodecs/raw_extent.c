/*
 * A DNG's image data checked against the file's length before libraw reads it.
 *
 * libraw reads a strip or tile that lies past the end of the file as zeros and reports nothing
 * (its data-error callback is not called for an uncompressed DNG), so a DNG cut short after its
 * directories, or one whose offsets were damaged, would be developed black without a word.
 * Every directory reachable from the header (the IFD chain and the SubIFDs, where a DNG keeps
 * its raw image) is walked, and each strip's or tile's offset + byte count compared with the
 * file's length: a piece that starts inside the file and runs past its end is `truncated`, one
 * that starts beyond the end `corrupt` (a damaged offset: libraw would develop whatever its
 * seek wrapped round to).
 */
#include "raw_extent.h"


#define MAX_IFDS 64          /* directories visited: DNGs hold a handful */
#define MAX_PIECES (1u << 16) /* strips or tiles of one directory checked */

typedef struct {
    int fd;
    uint64_t length;
    int big;
} extent_source;

static int read_at(const extent_source *s, uint64_t at, unsigned char *into, size_t n) {
    return dr_read_at(NULL, s->fd, s->length, at, into, n);
}

static uint32_t value(const unsigned char *p, int size, int big) {
    uint32_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint32_t)p[big ? size - 1 - i : i] << (8 * i);
    return v;
}

/* An entry's array of SHORT or LONG values: where it is and how many (0 when of another type). */
typedef struct {
    uint32_t count;
    int size;
    uint64_t at; /* in the file */
} entry_values;

static entry_values entry(const extent_source *s, const unsigned char *e, uint64_t entry_at) {
    uint32_t type = value(e + 2, 2, s->big), count = value(e + 4, 4, s->big);
    int size = type == 3 ? 2 : type == 4 || type == 13 ? 4 : 0;
    entry_values v = {.count = size ? count : 0, .size = size};
    v.at = (uint64_t)count * (uint64_t)size <= 4 ? entry_at + 8 : value(e + 8, 4, s->big);
    return v;
}

/* The i-th value of `v`; 0 (with *ok cleared) when it cannot be read. */
static uint32_t nth(const extent_source *s, entry_values v, uint32_t i, int *ok) {
    unsigned char b[4];
    if (!read_at(s, v.at + (uint64_t)i * (uint64_t)v.size, b, (size_t)v.size)) {
        *ok = 0;
        return 0;
    }
    return value(b, v.size, s->big);
}

/* DR_TRUNCATED when a piece of one directory's data (offsets `o`, byte counts `c`) runs past the
 * end of the file, DR_CORRUPT when one starts beyond it. */
static dr_status check_pieces(const extent_source *s, entry_values o, entry_values c, const char *what, char *message,
                              size_t capacity) {
    if (o.count == 0 || c.count == 0) return DR_OK;
    uint32_t n = o.count < c.count ? o.count : c.count;
    if (n > MAX_PIECES) n = MAX_PIECES;
    for (uint32_t i = 0; i < n; i++) {
        int ok = 1;
        uint64_t offset = nth(s, o, i, &ok), bytes = nth(s, c, i, &ok);
        if (!ok) {
            dr_set_message(message, capacity, "DNG: its %s offsets lie past the end of the %llu-byte file (truncated?)",
                           what, (unsigned long long)s->length);
            return DR_TRUNCATED;
        }
        if (offset > s->length) {
            dr_set_message(message, capacity,
                           "DNG: %s %u of %u starts at byte %llu, past the end of the %llu-byte file "
                           "(a damaged offset, or a file cut before its image data)",
                           what, i + 1, n, (unsigned long long)offset, (unsigned long long)s->length);
            return DR_CORRUPT;
        }
        if (offset + bytes > s->length) {
            dr_set_message(message, capacity,
                           "DNG: %s %u of %u (bytes %llu–%llu) runs past the end of the %llu-byte file (truncated?)",
                           what, i + 1, n, (unsigned long long)offset, (unsigned long long)(offset + bytes),
                           (unsigned long long)s->length);
            return DR_TRUNCATED;
        }
    }
    return DR_OK;
}

dr_status dr_raw_check_extent(int fd, uint64_t length, char *message, size_t capacity) {
    extent_source s = {.fd = fd, .length = length};
    unsigned char header[8];
    if (!read_at(&s, 0, header, 8)) return DR_OK; /* libraw's own checks say what is wrong */
    s.big = header[0] == 'M';
    uint32_t queue[MAX_IFDS];
    int queued = 0, visited = 0;
    queue[queued++] = value(header + 4, 4, s.big);
    while (visited < queued) {
        uint64_t ifd = queue[visited++];
        unsigned char count_bytes[2];
        if (ifd < 8 || !read_at(&s, ifd, count_bytes, 2)) continue;
        uint32_t count = value(count_bytes, 2, s.big);
        entry_values strips = {0}, strip_bytes = {0}, tiles = {0}, tile_bytes = {0};
        for (uint32_t i = 0; i < count && i < 1024; i++) {
            unsigned char e[12];
            uint64_t at = ifd + 2 + 12 * (uint64_t)i;
            if (!read_at(&s, at, e, 12)) break;
            switch (value(e, 2, s.big)) {
            case 0x0111: strips = entry(&s, e, at); break;
            case 0x0117: strip_bytes = entry(&s, e, at); break;
            case 0x0144: tiles = entry(&s, e, at); break;
            case 0x0145: tile_bytes = entry(&s, e, at); break;
            case 0x014A: { /* SubIFDs */
                entry_values sub = entry(&s, e, at);
                for (uint32_t k = 0; k < sub.count && queued < MAX_IFDS; k++) {
                    int ok = 1;
                    uint32_t offset = nth(&s, sub, k, &ok);
                    if (ok) queue[queued++] = offset;
                }
                break;
            }
            default: break;
            }
        }
        unsigned char next[4];
        if (queued < MAX_IFDS && read_at(&s, ifd + 2 + 12 * (uint64_t)count, next, 4) && value(next, 4, s.big) != 0)
            queue[queued++] = value(next, 4, s.big);
        dr_status status = check_pieces(&s, strips, strip_bytes, "strip", message, capacity);
        if (status == DR_OK) status = check_pieces(&s, tiles, tile_bytes, "tile", message, capacity);
        if (status != DR_OK) return status;
    }
    return DR_OK;
}
