/*
 * The median of each channel over a square, for float RGBA rows whatever they hold (after a
 * colour step, a resize, a 16-bit source): Huang's sliding histogram on 12-bit bins, exact.
 *
 * Each value falls in one of 4096 bins, linear over 0…1 (values outside go to the end bins),
 * so the bin holding the median is found from counts alone; the median itself is then picked
 * among the window's values in that bin, compared as floats (an exact refinement: the output is
 * one of the window's values, the one a sort would put in the middle). A step along the row
 * moves 2·side values in and out of the counts whatever the radius, and the median's bin moves
 * from where it was, a 64-bin group at a time across groups. Where the median's bin holds one
 * value (the common case) its value is the bin's sum of sort keys, kept with the counts, and
 * nothing is scanned; a channel with one value over the whole region (an opaque alpha) is
 * written as that value.
 */
#include "include/darkroom_kernels.h"

#include <string.h>

enum { BINS = 4096, GROUP = 64 };

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

/* Monotone in the value, so the median's bin holds the median (NaN was made 0 before). */
static inline uint16_t bin_of(float v) {
    if (!(v > 0)) return 0;
    if (v >= 1) return BINS - 1;
    return (uint16_t)(v * (float)(BINS - 1) + 0.5f);
}

typedef struct {
    uint16_t count[BINS];
    uint16_t group[BINS / GROUP];
    uint64_t keys[BINS];
    int m, below;
} histogram;

static inline void add(histogram *h, uint16_t b, uint32_t key) {
    h->count[b]++; h->group[b / GROUP]++; h->keys[b] += key;
    h->below += b < h->m;
}

static inline void take(histogram *h, uint16_t b, uint32_t key) {
    h->count[b]--; h->group[b / GROUP]--; h->keys[b] -= key;
    h->below -= b < h->m;
}

/* Moves m to the bin holding the k-th value (0-based): below ≤ k < below + count[m]. */
static inline void settle(histogram *h, int k) {
    while (h->below > k) {
        if (h->m % GROUP == 0 && h->below - h->group[h->m / GROUP - 1] > k) {
            h->below -= h->group[h->m / GROUP - 1];
            h->m -= GROUP;
        } else {
            h->m--;
            h->below -= h->count[h->m];
        }
    }
    while (h->below + h->count[h->m] <= k) {
        if (h->m % GROUP == 0 && h->below + h->group[h->m / GROUP] <= k) {
            h->below += h->group[h->m / GROUP];
            h->m += GROUP;
        } else {
            h->below += h->count[h->m];
            h->m++;
        }
    }
}

size_t dr_median_float_scratch(int radius, int width, int height) {
    const size_t side = 2 * (size_t)radius + 1;
    return sizeof(histogram) + ((size_t)width + side) * ((size_t)height + side) * (sizeof(uint16_t) + sizeof(uint32_t))
        + side * side * sizeof(uint32_t);
}

void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    const int side = 2 * radius + 1, k = side * side / 2;
    const int iw = width + 2 * radius, ih = height + 2 * radius;
    histogram *h = scratch;
    uint16_t *bins = (uint16_t *)(h + 1);
    uint32_t *keys = (uint32_t *)(bins + (size_t)iw * ih);
    uint32_t *candidates = keys + (size_t)iw * ih;
    for (int c = 0; c < 4; c++) {
        /* This channel of the region as bins and sort keys, once. */
        int constant = 1;
        const float first = rows[0][c] == rows[0][c] ? rows[0][c] : 0;
        for (int y = 0; y < ih; y++) {
            for (int x = 0; x < iw; x++) {
                float v = rows[y][4 * (size_t)x + c];
                if (v != v) v = 0;
                constant &= v == first;
                bins[(size_t)y * iw + x] = bin_of(v);
                keys[(size_t)y * iw + x] = order_key(v);
            }
        }
        if (constant) {
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) out[(size_t)y * outStride + 4 * (size_t)x + c] = first;
            continue;
        }
        for (int y = 0; y < height; y++) {
            memset(h, 0, sizeof *h);
            for (int dy = 0; dy < side; dy++)
                for (int dx = 0; dx < side; dx++) {
                    const size_t i = (size_t)(y + dy) * iw + dx;
                    add(h, bins[i], keys[i]);
                }
            for (int x = 0;; x++) {
                settle(h, k);
                float v;
                if (h->count[h->m] == 1) {
                    v = key_value((uint32_t)h->keys[h->m]);
                } else {
                    /* The window's values in the median's bin, in order; the median is the
                     * (k − below)-th of them. */
                    int n = 0;
                    const uint16_t m = (uint16_t)h->m;
                    for (int dy = 0; dy < side; dy++) {
                        const size_t i = (size_t)(y + dy) * iw + x;
                        for (int dx = 0; dx < side; dx++)
                            if (bins[i + dx] == m) {
                                uint32_t key = keys[i + dx];
                                int j = n++;
                                while (j > 0 && candidates[j - 1] > key) { candidates[j] = candidates[j - 1]; j--; }
                                candidates[j] = key;
                            }
                    }
                    v = key_value(candidates[k - h->below]);
                }
                out[(size_t)y * outStride + 4 * (size_t)x + c] = v;
                if (x + 1 == width) break;
                for (int dy = 0; dy < side; dy++) {
                    const size_t row = (size_t)(y + dy) * iw;
                    take(h, bins[row + x], keys[row + x]);
                    add(h, bins[row + x + side], keys[row + x + side]);
                }
            }
        }
    }
}
