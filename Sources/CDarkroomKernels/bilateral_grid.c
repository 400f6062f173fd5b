/*
 * The bilateral filter by range levels (bilateral_levels.c) on a coarse spatial grid (Paris and
 * Durand 2006, downsampled in space only), for large radii. For a level L the planes w_L·v and
 * w_L are summed into cells of cell×cell pixels, the cell sums are blurred by a Gaussian of
 * 2·coarseReach + 1 taps (in cells) and a pixel reads its two sums by bilinear interpolation
 * between the cells around it, then interpolates between levels as the full-resolution levels
 * do. Per pixel and level the cost is one exponential, two additions and the read-back, whatever
 * the radius: the caller grows the cell with the radius so that the coarse blur stays short.
 *
 * Loops run along whole rows so that they vectorise: the weights of a cell row's pixel rows are
 * accumulated down into one row, which is then summed across into cells; the read-back
 * interpolates each needed cell row across to full width once, then each output row between
 * two such rows. Blocks of columns whose values all lie past a level's cut-off skip it.
 *
 * Cells lie at multiples of `cell` from the image's origin and every sum has a fixed order, so
 * a pixel's arithmetic is the same whichever band or column chunk computes it.
 */
#include "include/darkroom_kernels.h"
#include "cpu_features.h"
#include "bilateral_cut.h"
#include "exp_nonpositive.h"

#include <math.h>
#include <string.h>

#define CUT_LOG2 (CUT * 1.44269504f)
#define BLOCK 32

/* Output columns a chunk computes, so that a level's rows stay in cache. */
enum { GRID_CHUNK = 512 };

/* The cell whose centre is at or left of pixel x's centre: floor((x + ½)/cell − ½), in integers. */
static inline int cell_below(int x, int cell) {
    const int n = 2 * x + 1 - cell, d = 2 * cell;
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* Where pixel x lies between cell_below(x) and the next cell's centre (0…1). */
static inline float cell_fraction(int x, int cell) {
    return (float)(2 * x + 1 - cell - 2 * cell * cell_below(x, cell)) / (float)(2 * cell);
}

int dr_bilateral_grid_reach(int cell, int coarseReach) { return (coarseReach + 2) * cell; }

/* The cells a run of `count` pixels from x reads, widened by the coarse reach. */
static void cell_span(int x, int count, int cell, int coarseReach, int *low, int *n) {
    *low = cell_below(x, cell) - coarseReach;
    *n = cell_below(x + count - 1, cell) + 1 + coarseReach - *low + 1;
}

/* The most cells a run of `count` pixels can read at any phase. */
static int max_cells(int count, int cell, int coarseReach) { return (count - 1) / cell + 2 + 2 * coarseReach + 1; }

typedef struct {
    float *X, *C0, *C1, *D0, *D1, *E0, *E1, *H0, *H1, *U, *A0, *A1, *ex, *rowLow, *rowHigh, *outLow, *outHigh;
    int *qx;
    unsigned char *needed;
} grid_scratch;

static size_t layout(int cell, int coarseReach, int height, float spacing, grid_scratch *s, void *base) {
    const size_t cw = GRID_CHUNK, ncx = (size_t)max_cells(GRID_CHUNK, cell, coarseReach);
    const size_t ncy = (size_t)max_cells(height, cell, coarseReach), nr = ncy - 2 * (size_t)coarseReach;
    const size_t ph = ncy * (size_t)cell, blocks = (ncx + BLOCK - 1) / BLOCK, stride = blocks * BLOCK;
    const size_t outBlocks = cw / BLOCK, h = (size_t)height;
    const size_t sizes[] = {
        ph * (size_t)cell * stride, ncy * stride, ncy * stride, nr * stride, nr * stride, nr * stride, nr * stride, nr * cw, nr * cw,
        h * cw, h * cw, h * cw, cw, ncy * blocks, ncy * blocks, h * outBlocks, h * outBlocks, cw,
    };
    float **slots[] = {&s->X, &s->C0, &s->C1, &s->D0, &s->D1, &s->E0, &s->E1, &s->H0, &s->H1,
                       &s->U, &s->A0, &s->A1, &s->ex, &s->rowLow, &s->rowHigh, &s->outLow, &s->outHigh};
    size_t floats = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        if (base && k < sizeof slots / sizeof slots[0]) *slots[k] = (float *)base + floats;
        if (base && k == sizeof slots / sizeof slots[0]) s->qx = (int *)((float *)base + floats);
        /* Each array starts 32-byte aligned. */
        floats += (sizes[k] + 7) / 8 * 8;
    }
    if (base) s->needed = (unsigned char *)((float *)base + floats);
    return floats * sizeof(float) + (size_t)dr_bilateral_level_count(spacing);
}

size_t dr_bilateral_grid_scratch(int cell, int coarseReach, int height, float spacing) {
    return layout(cell, coarseReach, height, spacing, &(grid_scratch){0}, NULL);
}

#define GRID_PARAMETERS                                                                                          \
    const float *const *rows, int c, int reach, int first, int cw, int y0, int height, int cell, const float *coarse, \
        int coarseReach, const float *spatial, int directReach, float rangeScale, float spacing, int levelLow,   \
        int levelCount, int rowOffset, int columnOffset, int firstRow, int nr, int nxr, float *out,              \
        ptrdiff_t outStride, const grid_scratch *s

/* One channel of one column chunk; inlined into a copy compiled for AVX2 and FMA and a plain one. */
static inline __attribute__((always_inline)) void grid_channel(GRID_PARAMETERS) {
    const int ncx = nxr + 2 * coarseReach, ph = (nr + 2 * coarseReach) * cell;
    const int ncy = nr + 2 * coarseReach, blocks = (ncx + BLOCK - 1) / BLOCK, outBlocks = (cw + BLOCK - 1) / BLOCK;
    const int side = 2 * coarseReach + 1, stride = blocks * BLOCK;
    /* The plane in cell order: row r, column j of each cell, then the cells (stride apart, the
       tail zero), so that a cell's sums add whole vectors of cells. */
    float *X = s->X;
    const float inverse = 1.0f / spacing;
    int zeros = 1, ones = 1;
    for (int r = 0; r < ph; r++) {
        const float *row = rows[r + rowOffset] + 4 * (size_t)columnOffset + (size_t)c;
        for (int j = 0; j < cell; j++) {
            float *x = X + ((size_t)r * (size_t)cell + (size_t)j) * (size_t)stride;
            for (int cx = 0; cx < ncx; cx++) {
                const float v = row[4 * ((size_t)cx * (size_t)cell + (size_t)j)];
                x[cx] = v;
                zeros &= v == 0.0f;
                ones &= v == 1.0f;
            }
            for (int cx = ncx; cx < stride; cx++) x[cx] = 0.0f;
        }
    }
    /* A channel that is all 0 or all 1 comes out so; the sums would give exactly that too. */
    if (zeros || ones) {
        for (int i = 0; i < height; i++)
            for (int x = 0; x < cw; x++) out[(size_t)i * outStride + 4 * (size_t)x + c] = ones ? 1.0f : 0.0f;
        return;
    }
    for (int i = 0; i < height; i++) {
        const float *row = rows[i + reach] + 4 * (size_t)(reach + first) + (size_t)c;
        for (int x = 0; x < cw; x++) {
            const float v = row[4 * (size_t)x];
            s->U[(size_t)i * cw + x] = v >= DR_BILATERAL_LEVELS_LOW && v <= DR_BILATERAL_LEVELS_HIGH ? v * inverse : OUTSIDE;
        }
    }
    /* Value ranges: of each block of a cell row's pixels, and of each block of output pixels. */
    for (int cy = 0; cy < ncy; cy++)
        for (int b = 0; b < blocks; b++) {
            float low = INFINITY, high = -INFINITY;
            for (int r = cy * cell * cell; r < (cy + 1) * cell * cell; r++)
                for (int x = b * BLOCK; x < ncx && x < (b + 1) * BLOCK; x++) {
                    const float v = X[(size_t)r * stride + x];
                    if (v < low) low = v;
                    if (v > high) high = v;
                }
            s->rowLow[cy * blocks + b] = low;
            s->rowHigh[cy * blocks + b] = high;
        }
    for (int i = 0; i < height; i++)
        for (int b = 0; b < outBlocks; b++) {
            float low = INFINITY, high = -INFINITY;
            for (int x = b * BLOCK; x < cw && x < (b + 1) * BLOCK; x++) {
                const float u = s->U[(size_t)i * cw + x];
                if (u == OUTSIDE) continue;
                if (u < low) low = u;
                if (u > high) high = u;
            }
            s->outLow[i * outBlocks + b] = low;
            s->outHigh[i * outBlocks + b] = high;
        }
    /* The levels some pixel interpolates from: those within two of a block's values (a level
       between two values no pixel is near adds exact zeros). */
    memset(s->needed, 0, (size_t)levelCount);
    for (int b = 0; b < height * outBlocks; b++) {
        if (!(s->outLow[b] <= s->outHigh[b])) continue;
        const int lowest = (int)floorf(s->outLow[b]) - 1 - levelLow, highest = (int)floorf(s->outHigh[b]) + 2 - levelLow;
        for (int k = lowest < 0 ? 0 : lowest; k <= highest && k < levelCount; k++) s->needed[k] = 1;
    }
    const float cutDistance = 1.01f * sqrtf(CUT / -rangeScale);
    /* The weights in base 2 (exp2_nonpositive, cheaper; relative error 3e-6). */
    const float rangeScaleLog2 = rangeScale * 1.44269504f;
    memset(s->A0, 0, sizeof(float) * (size_t)height * (size_t)cw);
    memset(s->A1, 0, sizeof(float) * (size_t)height * (size_t)cw);
    for (int k = 0; k < levelCount; k++) {
        if (!s->needed[k]) continue;
        const float levelIndex = (float)(k + levelLow), level = levelIndex * spacing;
        const float lowCut = level - cutDistance, highCut = level + cutDistance;
        /* The cell sums: the weights of a cell row's cell×cell pixels added, BLOCK cells at once. */
        for (int cy = 0; cy < ncy; cy++)
            for (int b = 0; b < blocks; b++) {
                float a0[BLOCK] = {0}, a1[BLOCK] = {0};
                if (!(s->rowHigh[cy * blocks + b] < lowCut || s->rowLow[cy * blocks + b] > highCut))
                    for (int r = cy * cell * cell; r < (cy + 1) * cell * cell; r++) {
                        const float *p = X + (size_t)r * stride + b * BLOCK;
                        for (int j = 0; j < BLOCK; j++) {
                            const float v = p[j], d = v - level, t = rangeScaleLog2 * d * d;
                            /* NaN, infinite and far values weigh 0. */
                            const int near = t >= -CUT_LOG2;
                            const float w = exp2_nonpositive(near ? t : 0.0f);
                            a1[j] += near ? w : 0.0f;
                            a0[j] += near ? w * v : 0.0f;
                        }
                    }
                float *c0 = s->C0 + (size_t)cy * stride + b * BLOCK, *c1 = s->C1 + (size_t)cy * stride + b * BLOCK;
                for (int j = 0; j < BLOCK; j++) { c0[j] = a0[j]; c1[j] = a1[j]; }
            }
        /* The coarse Gaussian, down then across, on the cell rows and columns the pixels read. */
        for (int m = 0; m < nr; m++) {
            float *d0 = s->D0 + (size_t)m * stride, *d1 = s->D1 + (size_t)m * stride;
            float *e0 = s->E0 + (size_t)m * stride, *e1 = s->E1 + (size_t)m * stride;
            for (int cx = 0; cx < stride; cx++) { d0[cx] = 0.0f; d1[cx] = 0.0f; e0[cx] = 0.0f; e1[cx] = 0.0f; }
            for (int t = 0; t < side; t++) {
                const float g = coarse[t];
                const float *c0 = s->C0 + (size_t)(m + t) * stride, *c1 = s->C1 + (size_t)(m + t) * stride;
                for (int cx = 0; cx < ncx; cx++) { d0[cx] += g * c0[cx]; d1[cx] += g * c1[cx]; }
            }
            for (int t = 0; t < side; t++) {
                const float g = coarse[t];
                for (int n = 0; n < nxr; n++) { e0[n] += g * d0[n + t]; e1[n] += g * d1[n + t]; }
            }
            /* Across to full width (the weights per column are the chunk's). */
            float *h0 = s->H0 + (size_t)m * cw, *h1 = s->H1 + (size_t)m * cw;
            for (int x = 0; x < cw; x++) {
                const int q = s->qx[x];
                const float f = s->ex[x];
                h0[x] = e0[q] + f * (e0[q + 1] - e0[q]);
                h1[x] = e1[q] + f * (e1[q + 1] - e1[q]);
            }
        }
        /* Each output row between its two cell rows, into the sums of the levels around its values. */
        for (int i = 0; i < height; i++) {
            const int m = cell_below(y0 + i, cell) - firstRow;
            const float f = cell_fraction(y0 + i, cell);
            const float *ha0 = s->H0 + (size_t)m * cw, *hb0 = ha0 + cw, *ha1 = s->H1 + (size_t)m * cw, *hb1 = ha1 + cw;
            for (int x0 = 0; x0 < cw; x0 += BLOCK) {
                const int ob = i * outBlocks + x0 / BLOCK;
                if (s->outHigh[ob] <= levelIndex - 2.0f || s->outLow[ob] >= levelIndex + 2.0f) continue;
                const int n = cw - x0 < BLOCK ? cw - x0 : BLOCK;
                const float *u = s->U + (size_t)i * cw + x0;
                float *a0 = s->A0 + (size_t)i * cw + x0, *a1 = s->A1 + (size_t)i * cw + x0;
                for (int j = 0; j < n; j++) {
                    /* The 4-point Lagrange weight of the level at distance a (in levels). */
                    const float a = fabsf(u[j] - levelIndex);
                    const float inner = (1.0f - a) * (1.0f + a) * (2.0f - a) * 0.5f;
                    const float outer = (a - 1.0f) * (a - 2.0f) * (3.0f - a) * (1.0f / 6.0f);
                    const float phi = a < 1.0f ? inner : (a < 2.0f ? outer : 0.0f);
                    const float b0 = ha0[x0 + j] + f * (hb0[x0 + j] - ha0[x0 + j]);
                    const float b1 = ha1[x0 + j] + f * (hb1[x0 + j] - ha1[x0 + j]);
                    a0[j] += phi * b0;
                    a1[j] += phi * b1;
                }
            }
        }
    }
    for (int i = 0; i < height; i++)
        for (int x = 0; x < cw; x++) {
            float *o = out + (size_t)i * outStride + 4 * (size_t)x + c;
            if (s->U[(size_t)i * cw + x] != OUTSIDE) { *o = s->A0[(size_t)i * cw + x] / s->A1[(size_t)i * cw + x]; continue; }
            /* Outside the levels: the direct sums over the exact window. */
            const float centre = rows[i + reach][4 * (size_t)(reach + first + x) + (size_t)c];
            float num = 0.0f, den = 0.0f;
            for (int dy = -directReach; dy <= directReach; dy++)
                for (int dx = -directReach; dx <= directReach; dx++) {
                    const float q = rows[i + reach + dy][4 * (size_t)(reach + first + x + dx) + (size_t)c];
                    const float d = q - centre, e = rangeScale * d * d;
                    if (!(e >= -87.0f)) continue;
                    const float w = spatial[dy + directReach] * spatial[dx + directReach] * exp_nonpositive(e);
                    num += w * q;
                    den += w;
                }
            *o = num / den;
        }
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static void grid_avx2(GRID_PARAMETERS) {
    grid_channel(rows, c, reach, first, cw, y0, height, cell, coarse, coarseReach, spatial, directReach, rangeScale, spacing,
                 levelLow, levelCount, rowOffset, columnOffset, firstRow, nr, nxr, out, outStride, s);
}
#endif

static void grid_plain(GRID_PARAMETERS) {
    grid_channel(rows, c, reach, first, cw, y0, height, cell, coarse, coarseReach, spatial, directReach, rangeScale, spacing,
                 levelLow, levelCount, rowOffset, columnOffset, firstRow, nr, nxr, out, outStride, s);
}

void dr_bilateral_grid(const float *const *rows, int reach, int x0, int y0, int cell, const float *coarse, int coarseReach,
                       const float *spatial, int directReach, float rangeScale, float spacing, int count, int height,
                       float *out, ptrdiff_t outStride, void *scratch) {
    const int avx2 = dr_has_avx2_fma();
    grid_scratch s;
    layout(cell, coarseReach, height, spacing, &s, scratch);
    const int levelLow = dr_bilateral_level_low(spacing), levelCount = dr_bilateral_level_count(spacing);
    int cyLow, ncy;
    cell_span(y0, height, cell, coarseReach, &cyLow, &ncy);
    /* rows[k] is image row y0 − reach + k; the first cell row read starts at cyLow·cell. */
    const int rowOffset = cyLow * cell - (y0 - reach), nr = ncy - 2 * coarseReach, firstRow = cyLow + coarseReach;
    for (int first = 0; first < count; first += GRID_CHUNK) {
        const int cw = count - first < GRID_CHUNK ? count - first : GRID_CHUNK, xa = x0 + first;
        int cxLow, ncx;
        cell_span(xa, cw, cell, coarseReach, &cxLow, &ncx);
        const int columnOffset = cxLow * cell - (x0 - reach), base = cell_below(xa, cell);
        for (int x = 0; x < cw; x++) {
            s.qx[x] = cell_below(xa + x, cell) - base;
            s.ex[x] = cell_fraction(xa + x, cell);
        }
        for (int c = 0; c < 4; c++) {
#if defined(__x86_64__)
            if (avx2) {
                grid_avx2(rows, c, reach, first, cw, y0, height, cell, coarse, coarseReach, spatial, directReach, rangeScale,
                          spacing, levelLow, levelCount, rowOffset, columnOffset, firstRow, nr, ncx - 2 * coarseReach,
                          out + 4 * (size_t)first, outStride, &s);
                continue;
            }
#endif
            (void)avx2;
            grid_plain(rows, c, reach, first, cw, y0, height, cell, coarse, coarseReach, spatial, directReach, rangeScale,
                       spacing, levelLow, levelCount, rowOffset, columnOffset, firstRow, nr, ncx - 2 * coarseReach,
                       out + 4 * (size_t)first, outStride, &s);
        }
    }
}
