/*
 * PNG row filters for the writer (png_idat.c), chosen per row. Encoding has no serial
 * dependency (every prediction reads unfiltered bytes), so each filter is one vectorisable
 * pass. The first row of a strip filtered and deflated on its own (on whichever thread
 * rendered it) is filtered as if nothing were above it, so it comes out the same whichever
 * thread that was.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum { NONE = 0, SUB = 1, UP = 2, AVERAGE = 3, PAETH = 4 };

/* Paeth's predictor without branches: the nearest of a (left), b (up), c (up-left) to a + b - c. */
static inline unsigned char paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int x = pb < pa ? b : a;
    int px = pb < pa ? pb : pa;
    return (unsigned char)(pc < px ? c : x);
}

/* Filters `row` into `out` (the filter byte first) with `type`; `up` NULL: no row above. */
static void filter_row(int type, const unsigned char *row, const unsigned char *up, size_t n, int bpp,
                       unsigned char *out) {
    out[0] = (unsigned char)type;
    unsigned char *f = out + 1;
    size_t left = (size_t)bpp < n ? (size_t)bpp : n;
    switch (type) {
    case NONE:
        memcpy(f, row, n);
        break;
    case SUB:
        memcpy(f, row, left);
        for (size_t i = left; i < n; i++) f[i] = (unsigned char)(row[i] - row[i - bpp]);
        break;
    case UP:
        for (size_t i = 0; i < n; i++) f[i] = (unsigned char)(row[i] - up[i]);
        break;
    case AVERAGE:
        for (size_t i = 0; i < left; i++) f[i] = (unsigned char)(row[i] - (up[i] >> 1));
        for (size_t i = left; i < n; i++) f[i] = (unsigned char)(row[i] - ((row[i - bpp] + up[i]) >> 1));
        break;
    default:
        for (size_t i = 0; i < left; i++) f[i] = (unsigned char)(row[i] - up[i]);
        for (size_t i = left; i < n; i++) f[i] = (unsigned char)(row[i] - paeth(row[i - bpp], up[i], up[i - bpp]));
        break;
    }
}

/* The sum of the filtered bytes taken as signed magnitudes: libpng's measure of which filter
 * leaves the least for deflate. */
static unsigned long cost(const unsigned char *f, size_t n) {
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++) {
        int v = (signed char)f[i];
        sum += (unsigned long)(v < 0 ? -v : v);
    }
    return sum;
}

/* 16-bit samples from host order to PNG's big-endian. */
static void to_big_endian(const unsigned char *from, unsigned char *to, size_t n) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i + 1 < n; i += 2) {
        to[i] = from[i + 1];
        to[i + 1] = from[i];
    }
#else
    memcpy(to, from, n);
#endif
}

int dr_png_filter_rows(const unsigned char *rows, size_t stride, size_t row_bytes, int count,
                       const unsigned char *above, const dr_png_filter_options *options, unsigned char *out) {
    int bpp = options->bytes_per_pixel < 1 ? 1 : options->bytes_per_pixel;
    int effort = options->effort;
    unsigned char *swapped = NULL, *trial = NULL;
    if (options->sixteen_bit) {
        swapped = malloc(row_bytes ? 3 * row_bytes : 1);
        if (swapped == NULL) return 0;
    }
    if (effort >= 1) {
        trial = malloc(2 * (row_bytes + 1));
        if (trial == NULL) { free(swapped); return 0; }
    }
    const unsigned char *up = above;
    if (above != NULL && swapped != NULL) {
        to_big_endian(above, swapped + 2 * row_bytes, row_bytes);
        up = swapped + 2 * row_bytes;
    }
    for (int y = 0; y < count; y++) {
        const unsigned char *row = rows + stride * (size_t)y;
        if (swapped != NULL) {
            unsigned char *into = swapped + (size_t)(y & 1) * row_bytes;
            to_big_endian(row, into, row_bytes);
            row = into;
        }
        unsigned char *target = out + (size_t)y * (row_bytes + 1);
        if (effort <= 0) {
            filter_row(NONE, row, NULL, row_bytes, bpp, target);
        } else {
            /* Every filter the row can take; the cheapest so far is kept in `target`, the
             * next candidate goes into `trial`. */
            int last = up != NULL ? PAETH : SUB;
            filter_row(NONE, row, up, row_bytes, bpp, target);
            unsigned long best = cost(target + 1, row_bytes);
            for (int type = SUB; type <= last; type++) {
                filter_row(type, row, up, row_bytes, bpp, trial);
                unsigned long c = cost(trial + 1, row_bytes);
                if (c < best) {
                    best = c;
                    memcpy(target, trial, row_bytes + 1);
                }
            }
        }
        up = row;
    }
    free(swapped);
    free(trial);
    return 1;
}
