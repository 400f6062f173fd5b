/*
 * The median of each channel over a square, for float RGBA rows whatever they hold (after a
 * colour step, a resize, a 16-bit source): Huang's sliding window over the order of the values,
 * exact.
 *
 * The values a channel takes in a block (at most CHUNK columns by ROWS rows of output, with the
 * square's reach around them) are sorted once (a radix sort of their order keys, the sample's
 * index alongside) and each sample is replaced by its place in that order, which no other
 * sample shares: the window is then a set of places, a bit each (bit p of the block's bitset),
 * and its median is the value at the set bit with (side² − 1)/2 set bits below it, whatever
 * the values (ties, infinities and ±3e38 included). A step along the row flips 2·side bits
 * whatever the radius; the median's word moves from where it was by whole words (a population
 * count each) and the bit within the word is found without a loop over the bits between. The
 * channels of a block slide together, so their independent steps overlap in the processor. A
 * channel with one value over the whole block (an opaque alpha) is written as that value.
 */
#include "include/darkroom_kernels.h"

#include <string.h>

/* Output columns and rows a block: few enough places that the window's bits lie a few to a
 * word and the walk between words is short; DIGIT: bits a radix pass. Places fit 16 bits. */
enum { CHUNK = 64, ROWS = 32, DIGIT = 11 };

/* Float bits mapped to unsigned integers of the same order (negative values reversed). */
static inline uint32_t order_key(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

static inline float key_value(uint32_t k) {
    uint32_t b = (k & 0x80000000u) ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline size_t block_samples(int radius, int width, int height) {
    width = width < CHUNK ? width : CHUNK;
    height = height < ROWS ? height : ROWS;
    return ((size_t)width + 2 * (size_t)radius) * ((size_t)height + 2 * (size_t)radius);
}

size_t dr_median_float_scratch(int radius, int width, int height) {
    const size_t n = block_samples(radius, width, height), words = (n + 63) / 64;
    /* items and their copy, the bitsets, radix counts, then per channel values and places. */
    return 2 * n * sizeof(uint64_t) + 4 * words * sizeof(uint64_t) + 3 * ((size_t)1 << DIGIT) * sizeof(uint32_t)
        + 4 * n * (sizeof(float) + sizeof(uint16_t));
}

/* Items key << 32 | index, sorted by key, least significant digit of key − lo first (every
 * digit's counts taken in one pass); returns the buffer holding the result (a or b). */
static uint64_t *sort_items(uint64_t *a, uint64_t *b, size_t n, uint32_t lo, uint32_t span, uint32_t *counts) {
    const int bits = 32 - __builtin_clz(span), passes = (bits + DIGIT - 1) / DIGIT, width = (bits + passes - 1) / passes;
    const uint32_t buckets = 1u << width, mask = buckets - 1;
    memset(counts, 0, (size_t)passes * buckets * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        const uint32_t key = (uint32_t)(a[i] >> 32) - lo;
        for (int pass = 0; pass < passes; pass++) counts[pass * buckets + ((key >> (pass * width)) & mask)]++;
    }
    for (int pass = 0; pass < passes; pass++) {
        uint32_t *count = counts + pass * buckets, sum = 0;
        for (uint32_t d = 0; d < buckets; d++) { const uint32_t c = count[d]; count[d] = sum; sum += c; }
        for (size_t i = 0; i < n; i++) b[count[(((uint32_t)(a[i] >> 32) - lo) >> (pass * width)) & mask]++] = a[i];
        uint64_t *t = a; a = b; b = t;
    }
    return a;
}

static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu) * 0x0101010101010101u) >> 56);
}

/* The place of set bit j (from 0, lowest first) of x, which has more than j: the byte holding
 * it from the bytes' running counts (no loop over bits), then the few set bits below it there. */
static inline int select64(uint64_t x, int j) {
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555u);
    s = (s & 0x3333333333333333u) + ((s >> 2) & 0x3333333333333333u);
    s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    const uint64_t running = s * ones; /* byte i: set bits in bytes 0 … i (at most 64) */
    const int byte = __builtin_ctzll(((running | highs) - (uint64_t)(j + 1) * ones) & highs) >> 3;
    unsigned rest = (unsigned)(x >> (8 * byte)) & 0xffu;
    for (int below = j - (int)(((running << 8) >> (8 * byte)) & 0xffu); below > 0; below--) rest &= rest - 1;
    return 8 * byte + __builtin_ctz(rest);
}

/* One channel's sliding window along a row: its bitset, the word m holding the median and the
 * set bits in the words below m. */
typedef struct {
    const uint16_t *place;
    const float *value;
    uint64_t *bits;
    float *out;
    int m, below;
} window;

static inline void settle(window *w, int k) {
    while (w->below > k) w->below -= popcount64(w->bits[--w->m]);
    for (int count; w->below + (count = popcount64(w->bits[w->m])) <= k; w->m++) w->below += count;
}

static void slide(window *windows, int channels, int radius, int iw, int words, int width, int height, ptrdiff_t outStride) {
    const int side = 2 * radius + 1, k = side * side / 2;
    for (int y = 0; y < height; y++) {
        for (int c = 0; c < channels; c++) {
            window *w = windows + c;
            memset(w->bits, 0, (size_t)words * sizeof *w->bits);
            for (int dy = 0; dy < side; dy++)
                for (int dx = 0; dx < side; dx++) {
                    const unsigned p = w->place[(size_t)(y + dy) * iw + dx];
                    w->bits[p >> 6] |= (uint64_t)1 << (p & 63);
                }
            w->m = 0;
            w->below = 0;
            settle(w, k);
        }
        for (int x = 0;; x++) {
            for (int c = 0; c < channels; c++) {
                window *w = windows + c;
                w->out[(size_t)y * outStride + 4 * (size_t)x] = w->value[64 * w->m + select64(w->bits[w->m], k - w->below)];
            }
            if (x + 1 == width) break;
            for (int c = 0; c < channels; c++) {
                window *w = windows + c;
                const uint16_t *column = w->place + (size_t)y * iw + x;
                uint64_t *bits = w->bits;
                const int m = w->m;
                int moved = 0;
                for (int dy = 0; dy < side; dy++, column += iw) {
                    const unsigned gone = column[0], come = column[side];
                    bits[gone >> 6] ^= (uint64_t)1 << (gone & 63);
                    bits[come >> 6] ^= (uint64_t)1 << (come & 63);
                    moved += ((int)(come >> 6) < m) - ((int)(gone >> 6) < m);
                }
                w->below += moved;
                settle(w, k);
            }
        }
    }
}

static void median_block(const float *const *rows, size_t x0, int radius, int width, int height, float *out, ptrdiff_t outStride,
                         void *scratch) {
    if (width <= 0 || height <= 0) return;
    const int iw = width + 2 * radius, ih = height + 2 * radius;
    const size_t n = (size_t)iw * ih, words = (n + 63) / 64;
    uint64_t *items = scratch, *spare = items + n, *bits = spare + n;
    uint32_t *counts = (uint32_t *)(bits + 4 * words);
    float *values = (float *)(counts + 3 * ((size_t)1 << DIGIT));
    uint16_t *places = (uint16_t *)(values + 4 * n);
    window windows[4];
    int channels = 0;
    for (int c = 0; c < 4; c++) {
        /* Order keys (NaN counts as 0), their range over the block. */
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int y = 0; y < ih; y++) {
            const float *row = rows[y] + 4 * x0 + c;
            uint64_t *item = items + (size_t)y * iw;
            for (int x = 0; x < iw; x++) {
                const float v = row[4 * (size_t)x];
                const uint32_t key = order_key(v == v ? v : 0);
                lo = key < lo ? key : lo;
                hi = key > hi ? key : hi;
                item[x] = (uint64_t)key << 32 | ((size_t)y * iw + x);
            }
        }
        if (lo == hi) {
            const float v = key_value(lo);
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) out[(size_t)y * outStride + 4 * (size_t)x + c] = v;
            continue;
        }
        const uint64_t *sorted = sort_items(items, spare, n, lo, hi - lo, counts);
        window *w = windows + channels;
        float *value = values + (size_t)channels * n;
        uint16_t *place = places + (size_t)channels * n;
        for (size_t i = 0; i < n; i++) {
            place[(uint32_t)sorted[i]] = (uint16_t)i;
            value[i] = key_value((uint32_t)(sorted[i] >> 32));
        }
        *w = (window){.place = place, .value = value, .bits = bits + (size_t)channels * words, .out = out + c};
        channels++;
    }
    if (channels) slide(windows, channels, radius, iw, (int)words, width, height, outStride);
}

void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    for (int y0 = 0; y0 < height; y0 += ROWS)
        for (int x0 = 0; x0 < width; x0 += CHUNK)
            median_block(rows + y0, (size_t)x0, radius, width - x0 < CHUNK ? width - x0 : CHUNK,
                         height - y0 < ROWS ? height - y0 : ROWS, out + (size_t)y0 * outStride + 4 * (size_t)x0, outStride,
                         scratch);
}
