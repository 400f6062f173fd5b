/*
 * The horizontal half of a resize from an opaque 8-bit source, in 16-bit fixed point: the
 * source stays 3 bytes a pixel (no 16-byte float copy of the decoded image is made), and two taps of three channels take one pmaddwd. SSSE3 where the CPU has it (every
 * x86-64 since 2006; chosen at run time, as the baseline is SSE2), plain C elsewhere.
 */
#include "include/darkroom_kernels.h"

#include <string.h>

#if defined(__x86_64__)
#include <tmmintrin.h>

__attribute__((target("ssse3")))
static void across_ssse3(const uint8_t *row, const int32_t *start, const int16_t *weights,
                         int taps, int first, int count, float *out) {
    /* Bytes r0 g0 b0 r1 g1 b1 (two neighbouring pixels) to 16-bit lanes r0 r1 g0 g1 b0 b1 0 0,
     * so that pmaddwd with (w0, w1) pairs sums both taps of each channel. */
    const __m128i pairs = _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1);
    const __m128 scale = _mm_set1_ps(1.0f / (255.0f * (float)(1 << DR_WEIGHT_BITS)));
    const __m128 colour = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
    const __m128 opaque = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
    for (int i = 0; i < count; i++) {
        const int o = first + i;
        const uint8_t *s = row + 3 * (size_t)start[o];
        const int16_t *w = weights + (size_t)o * taps;
        __m128i sum0 = _mm_setzero_si128(), sum1 = _mm_setzero_si128();
        int t = 0;
        for (; t + 4 <= taps; t += 4) {
            int64_t a, b;
            int32_t wa, wb;
            memcpy(&a, s + 3 * t, 8);       /* pixels t, t+1 (and 2 bytes not used) */
            memcpy(&b, s + 3 * t + 6, 8);   /* pixels t+2, t+3 */
            memcpy(&wa, w + t, 4);
            memcpy(&wb, w + t + 2, 4);
            __m128i pa = _mm_shuffle_epi8(_mm_cvtsi64_si128(a), pairs);
            __m128i pb = _mm_shuffle_epi8(_mm_cvtsi64_si128(b), pairs);
            sum0 = _mm_add_epi32(sum0, _mm_madd_epi16(pa, _mm_set1_epi32(wa)));
            sum1 = _mm_add_epi32(sum1, _mm_madd_epi16(pb, _mm_set1_epi32(wb)));
        }
        for (; t < taps; t += 2) {
            int64_t a = 0;
            int32_t wa;
            memcpy(&a, s + 3 * t, 6);
            memcpy(&wa, w + t, 4);
            sum0 = _mm_add_epi32(sum0, _mm_madd_epi16(_mm_shuffle_epi8(_mm_cvtsi64_si128(a), pairs), _mm_set1_epi32(wa)));
        }
        __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(_mm_add_epi32(sum0, sum1)), scale);
        _mm_storeu_ps(out + 4 * (size_t)i, _mm_or_ps(_mm_and_ps(f, colour), opaque));
    }
}
#endif

static void across_c(const uint8_t *row, const int32_t *start, const int16_t *weights,
                     int taps, int first, int count, float *out) {
    const float scale = 1.0f / (255.0f * (float)(1 << DR_WEIGHT_BITS));
    for (int i = 0; i < count; i++) {
        const int o = first + i;
        const uint8_t *s = row + 3 * (size_t)start[o];
        const int16_t *w = weights + (size_t)o * taps;
        int32_t r = 0, g = 0, b = 0;
        for (int t = 0; t < taps; t++) {
            r += w[t] * s[3 * t];
            g += w[t] * s[3 * t + 1];
            b += w[t] * s[3 * t + 2];
        }
        float *p = out + 4 * (size_t)i;
        p[0] = (float)r * scale;
        p[1] = (float)g * scale;
        p[2] = (float)b * scale;
        p[3] = 1.0f;
    }
}

void dr_resample_rgb8_across(const uint8_t *row, const int32_t *start, const int16_t *weights,
                             int taps, int first, int count, float *out) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("ssse3")) {
        across_ssse3(row, start, weights, taps, first, count, out);
        return;
    }
#endif
    across_c(row, start, weights, taps, first, count, out);
}
