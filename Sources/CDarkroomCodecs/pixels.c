/*
 * Quantisation of premultiplied float RGBA to 8-bit RGB, the last step of every output and so
 * one of the hottest loops: SSE2 (baseline x86-64) does a pixel in a handful of instructions,
 * where Swift's checked float-to-integer conversions took three times as long.
 */
#include "include/darkroom_codecs.h"

#include <pthread.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>

/* dr_quantise_rgb with AVX2 (chosen at run time), eight pixels a step: the same operations on
 * each sample in the same order, so the same bytes; packed to RGB with one byte shuffle
 * instead of a 3-byte copy per pixel. Leaves the last pixels (at least 2: the stores write 4
 * bytes past their 12) to the caller; returns how many it did. */
__attribute__((target("avx2")))
static size_t quantise_rgb_avx2(const float *pixels, size_t count, int over_white, unsigned char *out) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 scale = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f);
    /* After the packs, the 32-bit pixels sit as 0 2 4 6 | 1 3 5 7; this puts them in order. */
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i rgb = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                         0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    size_t i = 0;
    for (; i + 10 <= count; i += 8) {
        __m256i v[4];
        for (int j = 0; j < 4; j++) {
            __m256 p = _mm256_loadu_ps(pixels + 4 * (i + 2 * (size_t)j));
            if (over_white) {
                __m256 a = _mm256_shuffle_ps(p, p, _MM_SHUFFLE(3, 3, 3, 3));
                a = _mm256_min_ps(_mm256_max_ps(a, zero), one);
                p = _mm256_add_ps(p, _mm256_sub_ps(one, a));
            }
            p = _mm256_min_ps(_mm256_max_ps(p, zero), one);
            v[j] = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(p, scale), half));
        }
        __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
        bytes = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(bytes, order), rgb);
        _mm_storeu_si128((__m128i *)(out + 3 * i), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(out + 3 * i + 12), _mm256_extracti128_si256(bytes, 1));
    }
    return i;
}
#endif

/* Clamped to 0…1; NaN fails both comparisons and becomes 0. */
static inline float unit(float v) { return v > 0 ? (v < 1 ? v : 1) : 0; }

/* What a premultiplied pixel composited over white gains in each channel: 1 − alpha. */
static inline float under(const float *p, int over_white) { return over_white ? 1 - unit(p[3]) : 0; }

void dr_quantise_rgb(const float *pixels, size_t count, int over_white, unsigned char *out) {
    size_t done = 0;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) done = quantise_rgb_avx2(pixels, count, over_white, out);
#endif
#if defined(__SSE2__)
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 scale = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
    for (size_t i = done; i < count; i++) {
        __m128 p = _mm_loadu_ps(pixels + 4 * i);
        if (over_white) {
            /* Premultiplied "over" white: c + (1 − a). max/min put NaN at 0. */
            __m128 a = _mm_shuffle_ps(p, p, _MM_SHUFFLE(3, 3, 3, 3));
            a = _mm_min_ps(_mm_max_ps(a, zero), one);
            p = _mm_add_ps(p, _mm_sub_ps(one, a));
        }
        p = _mm_min_ps(_mm_max_ps(p, zero), one);
        __m128i v = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(p, scale), half));
        v = _mm_packs_epi32(v, v);
        v = _mm_packus_epi16(v, v);
        unsigned int rgba = (unsigned int)_mm_cvtsi128_si32(v);
        memcpy(out + 3 * i, &rgba, 3);
    }
#else
    for (size_t i = done; i < count; i++) {
        const float *p = pixels + 4 * i;
        float white = under(p, over_white);
        for (int c = 0; c < 3; c++) out[3 * i + c] = (unsigned char)(unit(p[c] + white) * 255.0f + 0.5f);
    }
#endif
}

void dr_quantise_grey(const float *pixels, size_t count, int over_white, unsigned char *out) {
    for (size_t i = 0; i < count; i++) {
        const float *p = pixels + 4 * i;
        float white = under(p, over_white);
        float sum = unit(p[0] + white) + unit(p[1] + white) + unit(p[2] + white);
        out[i] = (unsigned char)(sum * (255.0f / 3.0f) + 0.5f);
    }
}

/* The 256 quotients v / 255 (exact divisions: 255 gives exactly 1, so opaque stays opaque); a
 * division per sample costs more than the table's loads. Filled once, not at every row. */
static float unit_of_8bit[256];
static pthread_once_t unit_of_8bit_once = PTHREAD_ONCE_INIT;

static void fill_unit_of_8bit(void) {
    for (int v = 0; v < 256; v++) unit_of_8bit[v] = (float)v / 255.0f;
}

void dr_expand_rgb8(const unsigned char *rgb, size_t count, float *pixels) {
    pthread_once(&unit_of_8bit_once, fill_unit_of_8bit);
    const float *unit = unit_of_8bit;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = rgb + 3 * i;
        float *out = pixels + 4 * i;
        out[0] = unit[p[0]];
        out[1] = unit[p[1]];
        out[2] = unit[p[2]];
        out[3] = 1.0f;
    }
}
