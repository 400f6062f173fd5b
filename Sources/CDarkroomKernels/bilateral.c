/*
 * The bilateral filter's inner loops (noise_reduction): every neighbour weighs its spatial
 * weight times exp(rangeScale · |colour difference|²). The exponential is the cost: glibc's
 * expf is a call per neighbour that the compiler cannot vectorise. Here the window's rows are
 * first split into planes (R, G, B, A each contiguous), then for every neighbour offset the
 * weights and sums of a whole output row are computed in one loop over x, with a polynomial
 * 2^x (relative error below 4e-7, far under an 8-bit step): plain arithmetic on contiguous
 * floats, which the compiler turns into vector code (AVX2 and FMA where the CPU has them).
 */
#include "include/darkroom_kernels.h"

#include <stdint.h>
#include <string.h>

/* exp(x) for x ≤ 0: 2^(x·log2 e) as 2^integer (the float's exponent) × 2^fraction (a degree-5
   minimax polynomial on [0, 1)). Below −87 the result would be denormal: clamped (≈ 1.6e-38). */
static inline float exp_nonpositive(float x) {
    float t = (x < -87.0f ? -87.0f : x) * 1.44269504088896341f;
    int i = (int)t;                 /* truncates towards zero: t ≤ 0, so one above the floor… */
    i -= (float)i > t;              /* …unless t was whole */
    float f = t - (float)i;
    float p = 1.8775767e-3f;
    p = p * f + 8.9893397e-3f;
    p = p * f + 5.5826318e-2f;
    p = p * f + 2.4015361e-1f;
    p = p * f + 6.9315308e-1f;
    p = p * f + 9.9999994e-1f;
    int32_t bits;
    memcpy(&bits, &p, sizeof bits);
    bits += (int32_t)((uint32_t)i << 23);
    memcpy(&p, &bits, sizeof p);
    return p;
}

/* scratch: (2·reach + 1) · 4 · span planes (span = count + 2·reach), then 5 · count sums. */
#define BILATERAL_BODY                                                                                      \
    const int side = 2 * reach + 1, span = count + 2 * reach;                                              \
    float *planes = scratch, *sums = scratch + (size_t)side * 4 * (size_t)span;                            \
    for (int k = 0; k < side; k++)                                                                          \
        for (int x = 0; x < span; x++)                                                                      \
            for (int c = 0; c < 4; c++) planes[((size_t)k * 4 + (size_t)c) * (size_t)span + (size_t)x] = rows[k][4 * (size_t)x + (size_t)c]; \
    float *s0 = sums, *s1 = s0 + count, *s2 = s1 + count, *s3 = s2 + count, *total = s3 + count;           \
    memset(sums, 0, 5 * sizeof(float) * (size_t)count);                                                     \
    const float *centre = planes + (size_t)reach * 4 * (size_t)span + (size_t)reach;                       \
    const float *c0 = centre, *c1 = c0 + span, *c2 = c1 + span;                                            \
    for (int dy = 0; dy < side; dy++) {                                                                     \
        for (int dx = 0; dx < side; dx++) {                                                                 \
            const float w = spatial[dy * side + dx];                                                       \
            const float *r0 = planes + (size_t)dy * 4 * (size_t)span + (size_t)dx;                          \
            const float *r1 = r0 + span, *r2 = r1 + span, *r3 = r2 + span;                                 \
            for (int x = 0; x < count; x++) {                                                               \
                const float d0 = r0[x] - c0[x], d1 = r1[x] - c1[x], d2 = r2[x] - c2[x];                    \
                const float k = w * exp_nonpositive(rangeScale * (d0 * d0 + d1 * d1 + d2 * d2));           \
                s0[x] += k * r0[x]; s1[x] += k * r1[x]; s2[x] += k * r2[x]; s3[x] += k * r3[x];            \
                total[x] += k;                                                                              \
            }                                                                                               \
        }                                                                                                   \
    }                                                                                                       \
    for (int x = 0; x < count; x++) {                                                                       \
        out[4 * (size_t)x] = s0[x] / total[x]; out[4 * (size_t)x + 1] = s1[x] / total[x];                 \
        out[4 * (size_t)x + 2] = s2[x] / total[x]; out[4 * (size_t)x + 3] = s3[x] / total[x];             \
    }

#if defined(__x86_64__)
__attribute__((target("avx2,fma")))
static void bilateral_avx2(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                           float *scratch, float *out) {
    BILATERAL_BODY
}
#endif

static void bilateral_plain(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                            float *scratch, float *out) {
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
        for (int k = 0; k < side; k++) shifted[k] = rows[k] + 4 * (size_t)first;
#if defined(__x86_64__)
        if (avx2) {
            bilateral_avx2(shifted, reach, spatial, rangeScale, n, scratch, out + 4 * (size_t)first);
            continue;
        }
#endif
        (void)avx2;
        bilateral_plain(shifted, reach, spatial, rangeScale, n, scratch, out + 4 * (size_t)first);
    }
}
