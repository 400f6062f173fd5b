/*
 * The bilateral filter's direct method (noise_reduction at small noise levels, where the range
 * levels of bilateral_levels.c would be many): every neighbour weighs, in each channel, its
 * spatial weight times exp(rangeScale · (its value − the centre's)²). The exponentials are the
 * cost. The window's rows are first split into planes (R, G, B, A each contiguous), then for
 * every neighbour offset the weights and sums of a whole output row are computed in one loop
 * over x: plain arithmetic on contiguous floats, which the compiler turns into vector code
 * (AVX2 and FMA where the CPU has them).
 */
#include "include/darkroom_kernels.h"
#include "exp_nonpositive.h"

#include <stdint.h>
#include <string.h>

/* scratch: (2·reach + 1) · 4 · span planes (span = count + 2·reach), then 8 · count sums. When
   `opaque` (every alpha in the window is 1), alpha's sums are skipped: they would be equal, and
   their quotient exactly 1. */
#define BILATERAL_BODY                                                                                      \
    const int side = 2 * reach + 1, span = count + 2 * reach;                                              \
    float *planes = scratch, *sums = scratch + (size_t)side * 4 * (size_t)span;                            \
    for (int k = 0; k < side; k++)                                                                          \
        for (int x = 0; x < span; x++)                                                                      \
            for (int c = 0; c < 4; c++) planes[((size_t)k * 4 + (size_t)c) * (size_t)span + (size_t)x] = rows[k][4 * (size_t)x + (size_t)c]; \
    float *s0 = sums, *s1 = s0 + count, *s2 = s1 + count, *s3 = s2 + count;                                \
    float *t0 = s3 + count, *t1 = t0 + count, *t2 = t1 + count, *t3 = t2 + count;                         \
    memset(sums, 0, 8 * sizeof(float) * (size_t)count);                                                     \
    const float *centre = planes + (size_t)reach * 4 * (size_t)span + (size_t)reach;                       \
    const float *c0 = centre, *c1 = c0 + span, *c2 = c1 + span, *c3 = c2 + span;                           \
    for (int dy = 0; dy < side; dy++) {                                                                     \
        for (int dx = 0; dx < side; dx++) {                                                                 \
            const float w = spatial[dy * side + dx];                                                       \
            const float *r0 = planes + (size_t)dy * 4 * (size_t)span + (size_t)dx;                          \
            const float *r1 = r0 + span, *r2 = r1 + span, *r3 = r2 + span;                                 \
            for (int x = 0; x < count; x++) {                                                               \
                const float d0 = r0[x] - c0[x], d1 = r1[x] - c1[x], d2 = r2[x] - c2[x];                    \
                const float k0 = w * exp_nonpositive(rangeScale * (d0 * d0));                              \
                const float k1 = w * exp_nonpositive(rangeScale * (d1 * d1));                              \
                const float k2 = w * exp_nonpositive(rangeScale * (d2 * d2));                              \
                s0[x] += k0 * r0[x]; s1[x] += k1 * r1[x]; s2[x] += k2 * r2[x];                             \
                t0[x] += k0; t1[x] += k1; t2[x] += k2;                                                      \
            }                                                                                               \
            if (opaque) continue;                                                                           \
            for (int x = 0; x < count; x++) {                                                               \
                const float d3 = r3[x] - c3[x];                                                             \
                const float k3 = w * exp_nonpositive(rangeScale * (d3 * d3));                              \
                s3[x] += k3 * r3[x]; t3[x] += k3;                                                           \
            }                                                                                               \
        }                                                                                                   \
    }                                                                                                       \
    for (int x = 0; x < count; x++) {                                                                       \
        out[4 * (size_t)x] = s0[x] / t0[x]; out[4 * (size_t)x + 1] = s1[x] / t1[x];                       \
        out[4 * (size_t)x + 2] = s2[x] / t2[x]; out[4 * (size_t)x + 3] = opaque ? 1.0f : s3[x] / t3[x];   \
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
#if defined(__x86_64__)
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    const int avx2 = 0;
#endif
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
