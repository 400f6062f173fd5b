/*
 * The bilateral filter's inner loops (noise_reduction): every neighbour weighs its spatial
 * weight times exp(rangeScale · |colour difference|²). The exponential is the cost: glibc's
 * expf is a call per neighbour that the compiler cannot vectorise, so a window row's weights
 * are computed in one loop with a polynomial 2^x (relative error below 4e-7, far under an
 * 8-bit step), which the compiler turns into vector code.
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

void dr_bilateral_row(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                      float *weights, float *out) {
    const int side = 2 * reach + 1;
    for (int x = 0; x < count; x++) {
        const float *centre = rows[reach] + 4 * (size_t)(x + reach);
        const float c0 = centre[0], c1 = centre[1], c2 = centre[2];
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0, total = 0;
        for (int dy = 0; dy < side; dy++) {
            const float *row = rows[dy] + 4 * (size_t)x;
            const float *w = spatial + (size_t)dy * (size_t)side;
            for (int dx = 0; dx < side; dx++) {
                const float d0 = row[4 * dx] - c0, d1 = row[4 * dx + 1] - c1, d2 = row[4 * dx + 2] - c2;
                weights[dx] = w[dx] * exp_nonpositive(rangeScale * (d0 * d0 + d1 * d1 + d2 * d2));
            }
            for (int dx = 0; dx < side; dx++) {
                const float k = weights[dx];
                s0 += k * row[4 * dx]; s1 += k * row[4 * dx + 1]; s2 += k * row[4 * dx + 2]; s3 += k * row[4 * dx + 3];
                total += k;
            }
        }
        float *o = out + 4 * (size_t)x;
        o[0] = s0 / total; o[1] = s1 / total; o[2] = s2 / total; o[3] = s3 / total;
    }
}
