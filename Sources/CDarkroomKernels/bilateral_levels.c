/*
 * The bilateral filter by range levels (noise_reduction; Durand and Dorsey 2002, Yang, Tan and
 * Ahuja 2009), channel by channel: for a level L the sums Σ s·w_L·v and Σ s·w_L, with
 * w_L = exp(rangeScale · (v − L)²) and s the separable spatial Gaussian, are two blurs of the
 * whole chunk; a pixel of value v takes its sums at v by cubic (4-point Lagrange) interpolation
 * between the levels around it, and divides. The cost is two separable blurs a level, whatever
 * the window's area; the levels are `spacing` apart (a fraction of the range sigma, chosen by
 * the caller for accuracy) and only those some pixel of the chunk needs are computed.
 *
 * Interpolating the sums, not their quotient, keeps the error small: each sum is a mixture of
 * Gaussians of v with the range sigma as their width, smooth at the level spacing, where the
 * quotient can step within much less than a sigma between two clusters of values.
 *
 * Every pixel's arithmetic is the same whichever chunk or band computes it (the levels it uses
 * always are, the others add exact zeros), so strips and threads cannot change a pixel.
 */
#include "include/darkroom_kernels.h"
#include "cpu_features.h"
#include "bilateral_cut.h"
#include "exp_nonpositive.h"

#include <math.h>
#include <string.h>

/* Columns summed at once in registers (8 AVX vectors for the two sums). */
#define BLOCK 32

static inline int level_floor(float v) { return (int)floorf(v); }

int dr_bilateral_level_low(float spacing) { return level_floor(DR_BILATERAL_LEVELS_LOW / spacing) - 1; }

int dr_bilateral_level_count(float spacing) {
    return level_floor(DR_BILATERAL_LEVELS_HIGH / spacing) + 2 - dr_bilateral_level_low(spacing) + 1;
}

/* Floats of scratch per chunk (see the layout in dr_bilateral_levels), then the level flags. */
size_t dr_bilateral_levels_scratch(int reach, int height, float spacing) {
    const size_t span = DR_BILATERAL_LEVELS_CHUNK + 2 * (size_t)reach, rowsIn = (size_t)height + 2 * (size_t)reach;
    const size_t blocks = (span + BLOCK - 1) / BLOCK, outBlocks = DR_BILATERAL_LEVELS_CHUNK / BLOCK;
    const size_t floats = 3 * rowsIn * span + 2 * (size_t)height * span + 3 * (size_t)height * DR_BILATERAL_LEVELS_CHUNK + BLOCK
        + 2 * (rowsIn + (size_t)height) * blocks + 2 * (size_t)height * outBlocks;
    return floats * sizeof(float) + (size_t)dr_bilateral_level_count(spacing);
}

/* Scratch of one chunk: the channel's values X and the weighted planes P0 = w·v, P1 = w (rows
   of the window, span columns), their blurs down V0, V1 (output rows, span columns), each output
   pixel's value in level units U (or a sentinel for a value outside the levels), the
   interpolated sums A0, A1, room for the lanes a block reads past its row; the range of values
   in each block of BLOCK columns of a row (cellLow, cellHigh), in the rows a block of the pass
   down reads (columnLow, columnHigh), and in each block of output pixels in level units
   (outLow, outHigh); and which levels are needed. */
typedef struct {
    float *X, *P0, *P1, *V0, *V1, *U, *A0, *A1, *cellLow, *cellHigh, *columnLow, *columnHigh, *outLow, *outHigh;
    unsigned char *needed;
} levels_scratch;

#define LEVELS_BODY                                                                                          \
    const int side = 2 * reach + 1, span = cw + 2 * reach, rowsIn = height + 2 * reach;                      \
    float *X = s->X, *P0 = s->P0, *P1 = s->P1, *V0 = s->V0, *V1 = s->V1, *U = s->U, *A0 = s->A0, *A1 = s->A1; \
    const float inverse = 1.0f / spacing;                                                                     \
    int zeros = 1, ones = 1;                                                                                  \
    for (int i = 0; i < rowsIn; i++)                                                                          \
        for (int x = 0; x < span; x++) {                                                                      \
            const float v = rows[i][4 * (size_t)x + (size_t)c];                                               \
            X[(size_t)i * span + x] = v;                                                                      \
            zeros &= v == 0.0f;                                                                               \
            ones &= v == 1.0f;                                                                                \
        }                                                                                                     \
    /* A channel that is all 0 or all 1 comes out so; the sums would give exactly that too. */              \
    if (zeros || ones) {                                                                                      \
        for (int i = 0; i < height; i++)                                                                      \
            for (int x = 0; x < cw; x++) out[(size_t)i * outStride + 4 * (size_t)x + c] = ones ? 1.0f : 0.0f;  \
        return;                                                                                               \
    }                                                                                                         \
    memset(s->needed, 0, (size_t)levelCount);                                                                 \
    for (int i = 0; i < height; i++)                                                                          \
        for (int x = 0; x < cw; x++) {                                                                        \
            const float v = X[(size_t)(i + reach) * span + x + reach];                                        \
            float u = OUTSIDE;                                                                                \
            if (v >= DR_BILATERAL_LEVELS_LOW && v <= DR_BILATERAL_LEVELS_HIGH) {                              \
                u = v * inverse;                                                                              \
                const int b = level_floor(u) - 1 - levelLow;                                                  \
                for (int j = 0; j < 4; j++)                                                                   \
                    if (b + j >= 0 && b + j < levelCount) s->needed[b + j] = 1;                               \
            }                                                                                                 \
            U[(size_t)i * cw + x] = u;                                                                        \
        }                                                                                                     \
    /* Value ranges, so that blocks whose values all lie past the cut-off of a level skip it. */            \
    const int blocks = (span + BLOCK - 1) / BLOCK, outBlocks = (cw + BLOCK - 1) / BLOCK;                      \
    for (int i = 0; i < rowsIn; i++)                                                                          \
        for (int b = 0; b < blocks; b++) {                                                                    \
            float low = INFINITY, high = -INFINITY;                                                           \
            for (int x = b * BLOCK; x < span && x < (b + 1) * BLOCK; x++) {                                   \
                const float v = X[(size_t)i * span + x];                                                      \
                if (v < low) low = v;                                                                         \
                if (v > high) high = v;                                                                       \
            }                                                                                                 \
            s->cellLow[i * blocks + b] = low;                                                                 \
            s->cellHigh[i * blocks + b] = high;                                                               \
        }                                                                                                     \
    for (int i = 0; i < height; i++)                                                                          \
        for (int b = 0; b < blocks; b++) {                                                                    \
            float low = INFINITY, high = -INFINITY;                                                           \
            for (int t = 0; t < side; t++) {                                                                  \
                low = fminf(low, s->cellLow[(i + t) * blocks + b]);                                           \
                high = fmaxf(high, s->cellHigh[(i + t) * blocks + b]);                                        \
            }                                                                                                 \
            s->columnLow[i * blocks + b] = low;                                                               \
            s->columnHigh[i * blocks + b] = high;                                                             \
        }                                                                                                     \
    for (int i = 0; i < height; i++)                                                                          \
        for (int b = 0; b < outBlocks; b++) {                                                                 \
            float low = INFINITY, high = -INFINITY;                                                           \
            for (int x = b * BLOCK; x < cw && x < (b + 1) * BLOCK; x++) {                                     \
                const float u = U[(size_t)i * cw + x];                                                        \
                if (u == OUTSIDE) continue;                                                                   \
                if (u < low) low = u;                                                                         \
                if (u > high) high = u;                                                                       \
            }                                                                                                 \
            s->outLow[i * outBlocks + b] = low;                                                               \
            s->outHigh[i * outBlocks + b] = high;                                                             \
        }                                                                                                     \
    /* A value this far from a level is certainly past the cut-off (1 % margin over rounding). */           \
    const float cutDistance = 1.01f * sqrtf(CUT / -rangeScale);                                               \
    memset(A0, 0, sizeof(float) * (size_t)height * (size_t)cw);                                               \
    memset(A1, 0, sizeof(float) * (size_t)height * (size_t)cw);                                               \
    for (int k = 0; k < levelCount; k++) {                                                                    \
        if (!s->needed[k]) continue;                                                                          \
        const float levelIndex = (float)(k + levelLow), level = levelIndex * spacing;                         \
        const float lowCut = level - cutDistance, highCut = level + cutDistance;                              \
        for (int i = 0; i < rowsIn; i++)                                                                      \
            for (int b = 0; b < blocks; b++) {                                                                \
                const size_t first = (size_t)i * span + (size_t)b * BLOCK;                                    \
                const int n = span - b * BLOCK < BLOCK ? span - b * BLOCK : BLOCK;                            \
                if (s->cellHigh[i * blocks + b] < lowCut || s->cellLow[i * blocks + b] > highCut) {           \
                    memset(P0 + first, 0, sizeof(float) * (size_t)n);                                         \
                    memset(P1 + first, 0, sizeof(float) * (size_t)n);                                         \
                    continue;                                                                                 \
                }                                                                                             \
                for (int j = 0; j < n; j++) {                                                                 \
                    const float v = X[first + j], d = v - level, e = rangeScale * d * d;                      \
                    /* NaN, infinite and far values weigh 0. */                                               \
                    const int near = e >= -CUT;                                                               \
                    const float w = exp_nonpositive(near ? e : 0.0f);                                         \
                    P1[first + j] = near ? w : 0.0f;                                                          \
                    P0[first + j] = near ? w * v : 0.0f;                                                      \
                }                                                                                             \
            }                                                                                                 \
        /* Both passes in blocks of BLOCK columns summed in registers over all taps; lanes past  \
           the row's end read the next floats of the scratch and are dropped. */                  \
        for (int i = 0; i < height; i++)                                                                      \
            for (int x0 = 0; x0 < span; x0 += BLOCK) {                                                        \
                const int n = span - x0 < BLOCK ? span - x0 : BLOCK, cell = i * blocks + x0 / BLOCK;          \
                if (s->columnHigh[cell] < lowCut || s->columnLow[cell] > highCut) {                           \
                    memset(V0 + (size_t)i * span + x0, 0, sizeof(float) * (size_t)n);                         \
                    memset(V1 + (size_t)i * span + x0, 0, sizeof(float) * (size_t)n);                         \
                    continue;                                                                                 \
                }                                                                                             \
                float b0[BLOCK] = {0}, b1[BLOCK] = {0};                                                       \
                for (int t = 0; t < side; t++) {                                                              \
                    const float g = spatial[t];                                                               \
                    const float *p0 = P0 + (size_t)(i + t) * span + x0, *p1 = P1 + (size_t)(i + t) * span + x0; \
                    for (int j = 0; j < BLOCK; j++) { b0[j] += g * p0[j]; b1[j] += g * p1[j]; }               \
                }                                                                                             \
                for (int j = 0; j < n; j++) {                                                                 \
                    V0[(size_t)i * span + x0 + j] = b0[j];                                                    \
                    V1[(size_t)i * span + x0 + j] = b1[j];                                                    \
                }                                                                                             \
            }                                                                                                 \
        for (int i = 0; i < height; i++)                                                                      \
            for (int x0 = 0; x0 < cw; x0 += BLOCK) {                                                          \
                /* Skipped where no pixel interpolates from this level, or where all it reads is 0. */       \
                const int ob = i * outBlocks + x0 / BLOCK;                                                    \
                if (s->outHigh[ob] <= levelIndex - 2.0f || s->outLow[ob] >= levelIndex + 2.0f) continue;      \
                const int lastRead = x0 + BLOCK - 1 + 2 * reach < span - 1 ? x0 + BLOCK - 1 + 2 * reach : span - 1; \
                int active = 0;                                                                               \
                for (int b = x0 / BLOCK; b <= lastRead / BLOCK && !active; b++)                               \
                    active = !(s->columnHigh[i * blocks + b] < lowCut || s->columnLow[i * blocks + b] > highCut); \
                if (!active) continue;                                                                        \
                float b0[BLOCK] = {0}, b1[BLOCK] = {0}, phi[BLOCK];                                           \
                for (int t = 0; t < side; t++) {                                                              \
                    const float g = spatial[t];                                                               \
                    const float *v0 = V0 + (size_t)i * span + x0 + t, *v1 = V1 + (size_t)i * span + x0 + t;   \
                    for (int j = 0; j < BLOCK; j++) { b0[j] += g * v0[j]; b1[j] += g * v1[j]; }               \
                }                                                                                             \
                const float *u = U + (size_t)i * cw + x0;                                                     \
                for (int j = 0; j < BLOCK; j++) {                                                             \
                    /* The 4-point Lagrange weight of the level at distance a (in levels). */                 \
                    const float a = fabsf(u[j] - levelIndex);                                                 \
                    const float inner = (1.0f - a) * (1.0f + a) * (2.0f - a) * 0.5f;                          \
                    const float outer = (a - 1.0f) * (a - 2.0f) * (3.0f - a) * (1.0f / 6.0f);                 \
                    phi[j] = a < 1.0f ? inner : (a < 2.0f ? outer : 0.0f);                                    \
                }                                                                                             \
                float *a0 = A0 + (size_t)i * cw + x0, *a1 = A1 + (size_t)i * cw + x0;                         \
                if (cw - x0 >= BLOCK) {                                                                       \
                    for (int j = 0; j < BLOCK; j++) { a0[j] += phi[j] * b0[j]; a1[j] += phi[j] * b1[j]; }     \
                } else {                                                                                      \
                    for (int j = 0; j < cw - x0; j++) { a0[j] += phi[j] * b0[j]; a1[j] += phi[j] * b1[j]; }   \
                }                                                                                             \
            }                                                                                                 \
    }                                                                                                         \
    for (int i = 0; i < height; i++)                                                                          \
        for (int x = 0; x < cw; x++) {                                                                        \
            float *o = out + (size_t)i * outStride + 4 * (size_t)x + c;                                       \
            if (U[(size_t)i * cw + x] != OUTSIDE) { *o = A0[(size_t)i * cw + x] / A1[(size_t)i * cw + x]; continue; } \
            /* Outside the levels: the sums directly. */                                                      \
            const float centre = X[(size_t)(i + reach) * span + x + reach];                                   \
            float num = 0.0f, den = 0.0f;                                                                     \
            for (int dy = 0; dy < side; dy++)                                                                 \
                for (int dx = 0; dx < side; dx++) {                                                           \
                    const float q = X[(size_t)(i + dy) * span + x + dx], d = q - centre, e = rangeScale * d * d; \
                    if (!(e >= -87.0f)) continue;                                                             \
                    const float w = spatial[dy] * spatial[dx] * exp_nonpositive(e);                           \
                    num += w * q;                                                                             \
                    den += w;                                                                                 \
                }                                                                                             \
            *o = num / den;                                                                                   \
        }

#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void levels_avx2(const float *const *rows, int c, int reach, const float *spatial, float rangeScale, float spacing,
                        int levelLow, int levelCount, int cw, int height, float *out, ptrdiff_t outStride,
                        const levels_scratch *s) {
    LEVELS_BODY
}
#endif

static void levels_plain(const float *const *rows, int c, int reach, const float *spatial, float rangeScale, float spacing,
                         int levelLow, int levelCount, int cw, int height, float *out, ptrdiff_t outStride,
                         const levels_scratch *s) {
    LEVELS_BODY
}

void dr_bilateral_levels(const float *const *rows, int reach, const float *spatial, float rangeScale, float spacing,
                         int count, int height, float *out, ptrdiff_t outStride, void *scratch) {
    const int avx2 = dr_has_avx2_fma();
    const size_t span = DR_BILATERAL_LEVELS_CHUNK + 2 * (size_t)reach, rowsIn = (size_t)height + 2 * (size_t)reach;
    levels_scratch s;
    s.X = scratch;
    s.P0 = s.X + rowsIn * span;
    s.P1 = s.P0 + rowsIn * span;
    s.V0 = s.P1 + rowsIn * span;
    s.V1 = s.V0 + (size_t)height * span;
    s.U = s.V1 + (size_t)height * span;
    s.A0 = s.U + (size_t)height * DR_BILATERAL_LEVELS_CHUNK;
    s.A1 = s.A0 + (size_t)height * DR_BILATERAL_LEVELS_CHUNK;
    const size_t blocks = (span + BLOCK - 1) / BLOCK, outBlocks = DR_BILATERAL_LEVELS_CHUNK / BLOCK;
    s.cellLow = s.A1 + (size_t)height * DR_BILATERAL_LEVELS_CHUNK + BLOCK;
    s.cellHigh = s.cellLow + rowsIn * blocks;
    s.columnLow = s.cellHigh + rowsIn * blocks;
    s.columnHigh = s.columnLow + (size_t)height * blocks;
    s.outLow = s.columnHigh + (size_t)height * blocks;
    s.outHigh = s.outLow + (size_t)height * outBlocks;
    s.needed = (unsigned char *)(s.outHigh + (size_t)height * outBlocks);
    /* Lanes past a row's end read scratch: let them read zeros, not whatever was there. */
    memset(scratch, 0, (size_t)((char *)s.needed - (char *)scratch));
    const int levelLow = dr_bilateral_level_low(spacing), levelCount = dr_bilateral_level_count(spacing);
    const float *shifted[rowsIn];
    /* Chunks of DR_BILATERAL_LEVELS_CHUNK columns, so a level's planes stay in cache. */
    for (int first = 0; first < count; first += DR_BILATERAL_LEVELS_CHUNK) {
        const int cw = count - first < DR_BILATERAL_LEVELS_CHUNK ? count - first : DR_BILATERAL_LEVELS_CHUNK;
        for (size_t k = 0; k < rowsIn; k++) shifted[k] = rows[k] + 4 * (size_t)first;
        for (int c = 0; c < 4; c++) {
#if defined(__x86_64__)
            if (avx2) {
                levels_avx2(shifted, c, reach, spatial, rangeScale, spacing, levelLow, levelCount, cw, height,
                            out + 4 * (size_t)first, outStride, &s);
                continue;
            }
#endif
            (void)avx2;
            levels_plain(shifted, c, reach, spatial, rangeScale, spacing, levelLow, levelCount, cw, height,
                         out + 4 * (size_t)first, outStride, &s);
        }
    }
}
