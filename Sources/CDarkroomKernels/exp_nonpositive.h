/*
 * exp(x) for x ≤ 0 in plain float arithmetic, so loops that weigh neighbours by a Gaussian of
 * their difference vectorise (glibc's expf is a call the compiler cannot vectorise): 2^(x·log2 e)
 * as 2^integer (the float's exponent) × 2^fraction (a degree-5 minimax polynomial on [0, 1),
 * relative error below 4e-7, far under an 8-bit step). Below −87 the result would be denormal:
 * clamped (≈ 1.6e-38). Used by the range levels (bilateral_levels.c); exp2_nonpositive below
 * by the direct sums (bilateral.c).
 */
#ifndef DR_EXP_NONPOSITIVE_H
#define DR_EXP_NONPOSITIVE_H

#include <stdint.h>
#include <string.h>

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

/* 2^t for t ≤ 0, cheaper than exp_nonpositive for the direct sums' three exponentials a
   neighbour: t is rounded to the nearest integer n by adding 1.5·2^23 (the sum's low bits then
   hold n), and 2^(t − n), t − n in [−½, ½], is a degree-4 minimax polynomial (relative error
   below 3e-6). Below −125 the result would be denormal: clamped (≈ 2.4e-38). */
static inline float exp2_nonpositive(float t) {
    t = t < -125.0f ? -125.0f : t;
    const float shifted = t + 12582912.0f;
    const float f = t - (shifted - 12582912.0f);
    float p = 9.5701022e-3f;
    p = p * f + 5.5917863e-2f;
    p = p * f + 2.4024744e-1f;
    p = p * f + 6.9312179e-1f;
    p = p * f + 9.9999928e-1f;
    int32_t bits, n;
    memcpy(&n, &shifted, sizeof n);
    memcpy(&bits, &p, sizeof bits);
    bits = (int32_t)((uint32_t)bits + ((uint32_t)(n - 0x4B400000) << 23));
    memcpy(&p, &bits, sizeof p);
    return p;
}

#endif
