/*
 * The bilateral filter's direct method (noise_reduction at small noise levels, where the range
 * levels of bilateral_levels.c would be many): every neighbour weighs, in each channel,
 * 2^(spatial exponent + rangeScale · (its value − the centre's)²). The exponentials are the
 * cost: three a neighbour where a weight on the RGB distance takes one, so each is made cheap.
 * Its two exponents are summed in base 2 by one multiply-add (the spatial weight folded in),
 * and 2^t is rounded to nearest by the 1.5·2^23 trick with a degree-4 polynomial on [−½, ½].
 *
 * The window's rows are first split into planes (R, G, B, A each contiguous); then for each
 * group of LANES outputs the whole window is summed with the sums and the centre in registers:
 * plain arithmetic on fixed-length arrays, which the compiler turns into vector code (AVX2 and
 * FMA where the CPU has them).
 */
#include "include/darkroom_kernels.h"
#include "cpu_features.h"
#include "exp_nonpositive.h"

#include <stdint.h>
#include <string.h>

/* Outputs summed at once (one AVX vector a sum). Planes have LANES floats of zeros past their
   end, for the last group's lanes beyond `count`. */
#define LANES 8

size_t dr_bilateral_row_scratch(int reach, int count) {
    const size_t c = count < DR_BILATERAL_CHUNK ? (size_t)count : DR_BILATERAL_CHUNK;
    return (2 * (size_t)reach + 1) * 4 * (c + 2 * (size_t)reach + LANES);
}

/* One channel's sums over the window for LANES outputs from x0: Σ k·v and Σ k. */
#define CHANNEL_SUMS(plane, centre, sum, total)                                                              \
    for (int dy = 0; dy < side; dy++)                                                                        \
        for (int dx = 0; dx < side; dx++) {                                                                  \
            const float e = spatial[dy * side + dx];                                                         \
            const float *r = planes + ((size_t)dy * 4 + (plane)) * (size_t)stride + (size_t)(x0 + dx);       \
            for (int j = 0; j < LANES; j++) {                                                                \
                const float d = r[j] - (centre)[j];                                                          \
                const float k = exp2_nonpositive(rangeScale * d * d + e);                                    \
                (sum)[j] += k * r[j];                                                                        \
                (total)[j] += k;                                                                             \
            }                                                                                                \
        }

/* When `opaque` (every alpha in the window is 1) alpha's sums are skipped: they would be equal,
   and their quotient exactly 1. */
#define BILATERAL_BODY                                                                                       \
    const int side = 2 * reach + 1, span = count + 2 * reach, stride = span + LANES;                         \
    float *planes = scratch;                                                                                 \
    for (int k = 0; k < side; k++)                                                                           \
        for (int c = 0; c < 4; c++) {                                                                        \
            float *p = planes + ((size_t)k * 4 + (size_t)c) * (size_t)stride;                                \
            for (int x = 0; x < span; x++) p[x] = rows[k][4 * (size_t)x + (size_t)c];                        \
            memset(p + span, 0, LANES * sizeof(float));                                                      \
        }                                                                                                    \
    const float *centre = planes + (size_t)reach * 4 * (size_t)stride + (size_t)reach;                       \
    for (int x0 = 0; x0 < count; x0 += LANES) {                                                              \
        float c0[LANES], c1[LANES], c2[LANES], c3[LANES];                                                    \
        float s0[LANES] = {0}, s1[LANES] = {0}, s2[LANES] = {0}, s3[LANES] = {0};                            \
        float t0[LANES] = {0}, t1[LANES] = {0}, t2[LANES] = {0}, t3[LANES] = {0};                            \
        for (int j = 0; j < LANES; j++) {                                                                    \
            c0[j] = centre[x0 + j];                                                                          \
            c1[j] = centre[(size_t)stride + (size_t)(x0 + j)];                                               \
            c2[j] = centre[2 * (size_t)stride + (size_t)(x0 + j)];                                           \
            c3[j] = centre[3 * (size_t)stride + (size_t)(x0 + j)];                                           \
        }                                                                                                    \
        CHANNEL_SUMS(0, c0, s0, t0)                                                                          \
        CHANNEL_SUMS(1, c1, s1, t1)                                                                          \
        CHANNEL_SUMS(2, c2, s2, t2)                                                                          \
        if (!opaque) { CHANNEL_SUMS(3, c3, s3, t3) }                                                         \
        const int n = count - x0 < LANES ? count - x0 : LANES;                                               \
        for (int j = 0; j < n; j++) {                                                                        \
            float *o = out + 4 * (size_t)(x0 + j);                                                           \
            o[0] = s0[j] / t0[j]; o[1] = s1[j] / t1[j]; o[2] = s2[j] / t2[j];                                \
            o[3] = opaque ? 1.0f : s3[j] / t3[j];                                                            \
        }                                                                                                    \
    }

#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void bilateral_avx2(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                           int opaque, float *scratch, float *out) {
    BILATERAL_BODY
}
#endif

static void bilateral_plain(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                            int opaque, float *scratch, float *out) {
    BILATERAL_BODY
}

void dr_bilateral_row(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                      float *scratch, float *out) {
    const int avx2 = dr_has_avx2_fma();
    const int side = 2 * reach + 1;
    const float *shifted[side];
    /* Chunks of DR_BILATERAL_CHUNK outputs, so the planes stay small whatever the width. */
    for (int first = 0; first < count; first += DR_BILATERAL_CHUNK) {
        const int n = count - first < DR_BILATERAL_CHUNK ? count - first : DR_BILATERAL_CHUNK;
        int opaque = 1;
        for (int k = 0; k < side; k++) {
            shifted[k] = rows[k] + 4 * (size_t)first;
            for (int x = 0; x < n + 2 * reach && opaque; x++) opaque = shifted[k][4 * (size_t)x + 3] == 1.0f;
        }
#if defined(__x86_64__)
        if (avx2) {
            bilateral_avx2(shifted, reach, spatial, rangeScale, n, opaque, scratch, out + 4 * (size_t)first);
            continue;
        }
#endif
        (void)avx2;
        bilateral_plain(shifted, reach, spatial, rangeScale, n, opaque, scratch, out + 4 * (size_t)first);
    }
}
