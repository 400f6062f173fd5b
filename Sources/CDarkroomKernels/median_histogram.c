/*
 * The median of each channel over a square, for float RGBA rows whatever they hold (after a
 * colour step, a resize, a 16-bit source): Huang's sliding histogram on 12-bit bins, exact.
 *
 * Each value falls in one of 4096 bins, linear over the range the channel spans in the region
 * (so values past 0…1 and narrow ranges are resolved as finely as any), and the bin holding the
 * median is found from counts alone; the median itself is then picked among the window's
 * values in that bin, compared as floats (an exact refinement: the output is one of the
 * window's values, the one a sort would put in the middle). A step along the row moves
 * 2·side values in and out of the counts whatever the radius, and the median's bin moves from
 * where it was, a 64-bin group at a time across groups. Where the median's bin holds one value
 * its value is the bin's sum of sort keys, kept with the counts; otherwise the window's rows
 * are compared with the bin eight bins at a time (SSE2) and only the matches are sorted. A
 * channel with one value over the whole region (an opaque alpha) is written as that value.
 */
#include "include/darkroom_kernels.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { BINS = 4096, GROUP = 64, LANES = 8 };

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

/* Monotone in the value (a rounded subtraction and product never reverse an order), so the
 * median's bin holds the median. */
static inline uint16_t bin_of(float v, float lo, float scale, int top) {
    const float t = (v - lo) * scale;
    if (!(t > 0)) return 0;
    if (t >= top) return (uint16_t)top;
    return (uint16_t)(t + 0.5f);
}

/* A bin: its count in the top 16 bits, the sum of its values' sort keys below (a window holds
 * at most 441 keys of 32 bits, so no sum of bins, however many, carries into the counts). */
typedef uint64_t bin;
#define ONE ((uint64_t)1 << 48)
#define COUNT(b) ((int)((b) >> 48))

/* How many of the window's values lie in the GROUP bins from `first`. */
static inline int group_count(const bin *hist, int first) {
    uint64_t total = 0;
    for (int j = 0; j < GROUP; j++) total += hist[first + j];
    return COUNT(total);
}

size_t dr_median_float_scratch(int radius, int width, int height) {
    const size_t side = 2 * (size_t)radius + 1;
    return BINS * sizeof(bin) + ((size_t)width + side) * ((size_t)height + side) * (sizeof(uint16_t) + sizeof(uint32_t))
        + LANES * sizeof(uint16_t) + side * side * sizeof(uint32_t);
}

/* The k-th (0-based) of the `count` window values whose bin is m, the window's top-left at i. */
static float pick_in_bin(const uint16_t *bins, const uint32_t *keys, size_t i, int iw, int side, uint16_t m, int k,
                         int count, uint32_t *candidates) {
    int n = 0;
    for (int dy = 0; n < count; dy++, i += (size_t)iw) {
        for (int dx = 0; dx < side; dx += LANES) {
#if defined(__SSE2__)
            const __m128i eq = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(bins + i + dx)), _mm_set1_epi16((short)m));
            unsigned mask = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(eq, eq)) & 0xffu;
            if (side - dx < LANES) mask &= (1u << (side - dx)) - 1;
#else
            unsigned mask = 0;
            for (int l = 0; l < LANES && dx + l < side; l++) mask |= (unsigned)(bins[i + dx + l] == m) << l;
#endif
            while (mask) {
                const int l = __builtin_ctz(mask);
                mask &= mask - 1;
                const uint32_t key = keys[i + dx + l];
                int j = n++;
                while (j > 0 && candidates[j - 1] > key) { candidates[j] = candidates[j - 1]; j--; }
                candidates[j] = key;
            }
        }
    }
    return key_value(candidates[k]);
}

void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    const int side = 2 * radius + 1, k = side * side / 2;
    const int iw = width + 2 * radius, ih = height + 2 * radius;
    /* A small window is sparse in 4096 bins (the median walks far between pixels): fewer bins. */
    const int top = (side <= 5 ? 1024 : BINS) - 1;
    bin *hist = scratch;
    uint16_t *bins = (uint16_t *)(hist + BINS);
    /* LANES spare bins: the last row's comparisons read up to 7 past its end. */
    uint32_t *keys = (uint32_t *)(bins + (size_t)iw * ih + LANES);
    uint32_t *candidates = keys + (size_t)iw * ih;
    memset(bins + (size_t)iw * ih, 0, LANES * sizeof *bins);
    for (int c = 0; c < 4; c++) {
        /* The channel's range over the region (NaN counts as 0; infinities go to the end bins). */
        float lo = rows[0][c] == rows[0][c] ? rows[0][c] : 0, hi = lo, flo = 0, fhi = 0;
        int finite = 0;
        for (int y = 0; y < ih; y++)
            for (int x = 0; x < iw; x++) {
                float v = rows[y][4 * (size_t)x + c];
                if (v != v) v = 0;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
                if (v - v == 0) {
                    if (!finite || v < flo) flo = v;
                    if (!finite || v > fhi) fhi = v;
                    finite = 1;
                }
            }
        if (lo == hi) {
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) out[(size_t)y * outStride + 4 * (size_t)x + c] = lo;
            continue;
        }
        /* A range too wide for a float (±3e38) puts every value in bin 0: slow, still exact. */
        const float scale = fhi > flo ? (float)(top) / (fhi - flo) : 0;
        for (int y = 0; y < ih; y++) {
            for (int x = 0; x < iw; x++) {
                float v = rows[y][4 * (size_t)x + c];
                if (v != v) v = 0;
                bins[(size_t)y * iw + x] = bin_of(v, flo, scale, top);
                keys[(size_t)y * iw + x] = order_key(v);
            }
        }
        for (int y = 0; y < height; y++) {
            memset(hist, 0, ((size_t)top + 1) * sizeof *hist);
            for (int dy = 0; dy < side; dy++)
                for (int dx = 0; dx < side; dx++) {
                    const size_t i = (size_t)(y + dy) * iw + dx;
                    hist[bins[i]] += ONE + keys[i];
                }
            /* m: the median's bin; below: how many of the window's values lie in bins below m. */
            int m = 0, below = 0;
            for (int x = 0;; x++) {
                /* Bin by bin; after a few bins, a group at a time where the whole group lies
                 * on the way (a far move: an edge). */
                int steps = 0;
                while (below > k) {
                    int g;
                    if (steps > 8 && m % GROUP == 0 && below - (g = group_count(hist, m - GROUP)) > k) {
                        below -= g;
                        m -= GROUP;
                    } else {
                        m--;
                        below -= COUNT(hist[m]);
                        steps++;
                    }
                }
                while (below + COUNT(hist[m]) <= k) {
                    int g;
                    if (steps > 8 && m % GROUP == 0 && below + (g = group_count(hist, m)) <= k) {
                        below += g;
                        m += GROUP;
                    } else {
                        below += COUNT(hist[m]);
                        m++;
                        steps++;
                    }
                }
                const float v = COUNT(hist[m]) == 1 ? key_value((uint32_t)hist[m])
                                               : pick_in_bin(bins, keys, (size_t)y * iw + x, iw, side, (uint16_t)m, k - below,
                                                           COUNT(hist[m]), candidates);
                out[(size_t)y * outStride + 4 * (size_t)x + c] = v;
                if (x + 1 == width) break;
                int moved = 0;
                for (int dy = 0; dy < side; dy++) {
                    const size_t row = (size_t)(y + dy) * iw + x;
                    const uint16_t gone = bins[row], come = bins[row + side];
                    hist[gone] -= ONE + keys[row];
                    hist[come] += ONE + keys[row + side];
                    moved += (come < m) - (gone < m);
                }
                below += moved;
            }
        }
    }
}
