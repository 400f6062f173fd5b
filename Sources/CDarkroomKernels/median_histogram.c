/*
 * The median of each channel over a square, for float RGBA rows whatever they hold (after a
 * colour step, a resize, a 16-bit source): Huang's sliding histogram over the ranks of the
 * values, exact.
 *
 * The values a channel takes in a block of CHUNK columns are sorted once (a radix sort of their
 * order keys) and each is replaced by its rank among the distinct ones, so a histogram bin
 * holds one value: the median's bin, found from counts alone, is the median (no refinement,
 * whatever the values, infinities and ±3e38 included). A step along the row moves 2·side
 * counts whatever the radius; the median's bin moves from where it was to the next occupied
 * bin, 8 or 16 bins a load (SSE2) over the empty ones between the window's values; counts are
 * bytes while a window holds at most 255 values. A channel with one value over the whole
 * block (an opaque alpha) is written as that value.
 */
#include "include/darkroom_kernels.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Columns a block: its values' ranks few and its histogram small (the walk between the window's
 * values short); DIGIT: bits a radix pass. */
enum { CHUNK = 64, DIGIT = 11, PAD = 8 };

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

size_t dr_median_float_scratch(int radius, int width, int height) {
    width = width < CHUNK ? width : CHUNK;
    const size_t n = ((size_t)width + 2 * (size_t)radius) * ((size_t)height + 2 * (size_t)radius);
    return 2 * n * sizeof(uint64_t) + 3 * ((size_t)1 << DIGIT) * sizeof(uint32_t) + (n + 4 * PAD) * sizeof(uint16_t);
}

/* The first bin from p up (or down) whose count is not zero (one exists): LANES bins a load. */
#if defined(__SSE2__)
#define OCCUPIED(T, LANES, CMPEQ)                                                                                       \
    static inline int next_occupied_##T(const T *h, int p) {                                                            \
        for (;; p += LANES) {                                                                                           \
            const unsigned mask =                                                                                       \
                ~(unsigned)_mm_movemask_epi8(CMPEQ(_mm_loadu_si128((const __m128i *)(h + p)), _mm_setzero_si128())) & 0xffffu; \
            if (mask) return p + __builtin_ctz(mask) / (16 / LANES);                                                    \
        }                                                                                                               \
    }                                                                                                                   \
    static inline int previous_occupied_##T(const T *h, int p) {                                                        \
        for (;; p -= LANES) {                                                                                           \
            const unsigned mask = ~(unsigned)_mm_movemask_epi8(                                                         \
                CMPEQ(_mm_loadu_si128((const __m128i *)(h + p - (LANES - 1))), _mm_setzero_si128())) & 0xffffu;         \
            if (mask) return p - (LANES - 1) + (31 - __builtin_clz(mask)) / (16 / LANES);                               \
        }                                                                                                               \
    }
#else
#define OCCUPIED(T, LANES, CMPEQ)                                                                                       \
    static inline int next_occupied_##T(const T *h, int p) { while (!h[p]) p++; return p; }                            \
    static inline int previous_occupied_##T(const T *h, int p) { while (!h[p]) p--; return p; }
#endif
OCCUPIED(uint8_t, 16, _mm_cmpeq_epi8)
OCCUPIED(uint16_t, 8, _mm_cmpeq_epi16)

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

/* Huang's walk along each output row over the ranks (the histogram left empty at the end). */
#define SLIDE(T)                                                                                                        \
    static void slide_##T(const uint32_t *rank, const float *value, T *hist, int distinct, int radius, int iw,          \
                          int width, int height, float *out, ptrdiff_t outStride) {                                    \
        const int side = 2 * radius + 1, k = side * side / 2;                                                          \
        memset(hist - 2 * PAD, 0, ((size_t)distinct + 1 + 4 * PAD) * sizeof *hist);                                    \
        for (int y = 0; y < height; y++) {                                                                              \
            int m = distinct;                                                                                           \
            for (int dy = 0; dy < side; dy++)                                                                           \
                for (int dx = 0; dx < side; dx++) {                                                                     \
                    const uint32_t r = rank[(size_t)(y + dy) * iw + dx];                                                \
                    hist[r]++;                                                                                          \
                    m = (int)r < m ? (int)r : m;                                                                        \
                }                                                                                                       \
            /* m: the median's bin; below: how many of the window's values lie in bins below m. */                     \
            int below = 0;                                                                                              \
            for (int x = 0;; x++) {                                                                                     \
                while (below > k) below -= hist[m = previous_occupied_##T(hist, m - 1)];                               \
                while (below + hist[m] <= k) {                                                                          \
                    below += hist[m];                                                                                   \
                    m = next_occupied_##T(hist, m + 1);                                                                 \
                }                                                                                                       \
                out[(size_t)y * outStride + 4 * (size_t)x] = value[m];                                                  \
                if (x + 1 == width) break;                                                                              \
                int moved = 0;                                                                                          \
                for (int dy = 0; dy < side; dy++) {                                                                     \
                    const uint32_t *row = rank + (size_t)(y + dy) * iw + x;                                             \
                    const uint32_t gone = row[0], come = row[side];                                                     \
                    hist[gone]--;                                                                                       \
                    hist[come]++;                                                                                       \
                    moved += ((int)come < m) - ((int)gone < m);                                                         \
                }                                                                                                       \
                below += moved;                                                                                         \
            }                                                                                                           \
            for (int dy = 0; dy < side; dy++)                                                                           \
                for (int dx = 0; dx < side; dx++) hist[rank[(size_t)(y + dy) * iw + width - 1 + dx]]--;                \
        }                                                                                                               \
    }
SLIDE(uint8_t)
SLIDE(uint16_t)

static void median_block(const float *const *rows, size_t x0, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    if (width <= 0 || height <= 0) return;
    const int side = 2 * radius + 1;
    const int iw = width + 2 * radius, ih = height + 2 * radius;
    const size_t n = (size_t)iw * ih;
    uint64_t *items = scratch, *spare = items + n;
    uint32_t *counts = (uint32_t *)(spare + n);
    uint16_t *hist = (uint16_t *)(counts + 3 * ((size_t)1 << DIGIT)) + 2 * PAD;
    for (int c = 0; c < 4; c++) {
        /* Order keys (NaN counts as 0), their range over the region. */
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
        /* Each value's rank among the distinct ones, and the value of each rank, in the buffer
         * the sort's result is not in. */
        uint32_t *rank = (uint32_t *)(sorted == items ? spare : items);
        float *value = (float *)(rank + n);
        int distinct = -1;
        for (size_t i = 0, previous = 0; i < n; i++) {
            const uint64_t item = sorted[i];
            if (!i || item >> 32 != previous) {
                previous = (size_t)(item >> 32);
                value[++distinct] = key_value((uint32_t)previous);
            }
            rank[(uint32_t)item] = (uint32_t)distinct;
        }
        if (side * side <= UINT8_MAX)
            slide_uint8_t(rank, value, (uint8_t *)hist, distinct, radius, iw, width, height, out + c, outStride);
        else
            slide_uint16_t(rank, value, hist, distinct, radius, iw, width, height, out + c, outStride);
    }
}

void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    for (int x0 = 0; x0 < width; x0 += CHUNK)
        median_block(rows, (size_t)x0, radius, width - x0 < CHUNK ? width - x0 : CHUNK, height, out + 4 * (size_t)x0, outStride,
                     scratch);
}
