#include "darkroom_draw.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* No fused multiply-add where the machine has one: the float path (Swift) rounds each step. */
#pragma STDC FP_CONTRACT OFF

/* Pure arithmetic, no library: see dr_paint_rgb8_over in darkroom_draw.h. Each step is the
   float path's own, in the same order (ShapeStyle.swift's composite on the decoder's v / 255,
   then the encoders' clamp and round, dr_quantise_rgb), so a pixel one shape covers comes out
   as the float path writes it. */

/* s + d × inverse for one channel of the 8-bit sample v, clamped and rounded. */
static inline uint8_t over(float s, float inverse, uint8_t v) {
    float out = s + ((float)v / 255.0f) * inverse;
    out = out < 0.0f ? 0.0f : out > 1.0f ? 1.0f : out;
    return (uint8_t)(out * 255.0f + 0.5f);
}

/* The linear form of a fully covered channel, as the vector loop computes it lane by lane. */
static inline uint8_t linear(float k, float c, uint8_t v) { return (uint8_t)(int)((float)v * k + c); }

void dr_paint_rgb8_table(const float color[4], dr_paint_table *table) {
    /* Full coverage: s is the colour itself (× 255 × 1/255 = × 1.0f, exact). */
    const float full = 255.0f * (1.0f / 255.0f), inverse = 1.0f - color[3] * full;
    table->k = inverse;
    table->linear = 1;
    for (int c = 0; c < 3; c++) {
        /* out = v × inverse + (s × 255 + 0.5), truncated: the same up to float rounding, and
           kept only if it gives every one of the 256 results exactly. */
        table->c[c] = color[c] * full * 255.0f + 0.5f;
        for (int v = 0; v < 256; v++) {
            uint8_t exact = over(color[c] * full, inverse, (uint8_t)v);
            table->lut[256 * c + v] = exact;
            float f = (float)v * inverse + table->c[c];
            if (!(f >= 0.0f && f < 256.0f) || linear(inverse, table->c[c], (uint8_t)v) != exact) table->linear = 0;
        }
    }
}

#if defined(__SSE2__)
/* 16 fully covered pixels (48 bytes) through the linear form: 12 vectors of 4 samples, whose
   channels repeat every 3 vectors (R G B R, G B R G, B R G B). */
static void linear16(uint8_t *p, __m128 k, const __m128 c[3]) {
    const __m128i zero = _mm_setzero_si128();
    for (int part = 0; part < 3; part++) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(p + 16 * part));
        __m128i half[2] = {_mm_unpacklo_epi8(bytes, zero), _mm_unpackhi_epi8(bytes, zero)};
        __m128i out[4];
        for (int h = 0; h < 2; h++) {
            for (int q = 0; q < 2; q++) {
                __m128i wide = q == 0 ? _mm_unpacklo_epi16(half[h], zero) : _mm_unpackhi_epi16(half[h], zero);
                /* Vector number 4 × part + 2 × h + q of the 12; its channels start at its first byte. */
                __m128 f = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(wide), k), c[(4 * part + 2 * h + q) % 3]);
                out[2 * h + q] = _mm_cvttps_epi32(f);
            }
        }
        __m128i packed = _mm_packus_epi16(_mm_packs_epi32(out[0], out[1]), _mm_packs_epi32(out[2], out[3]));
        _mm_storeu_si128((__m128i *)(p + 16 * part), packed);
    }
}
#endif

void dr_paint_rgb8_over(uint8_t *rgb, const uint8_t *coverage, int32_t count, const float color[4],
                        const dr_paint_table *table) {
    const float scale = 1.0f / 255.0f;
    const uint8_t *red = table->lut, *green = table->lut + 256, *blue = table->lut + 512;
#if defined(__SSE2__)
    const __m128 k = _mm_set1_ps(table->k);
    const float *c = table->c;
    const __m128 cs[3] = {_mm_setr_ps(c[0], c[1], c[2], c[0]), _mm_setr_ps(c[1], c[2], c[0], c[1]),
                          _mm_setr_ps(c[2], c[0], c[1], c[2])};
    const __m128i opaque = _mm_set1_epi8((char)0xff);
#endif
    int32_t i = 0;
    while (i < count) {
#if defined(__SSE2__)
        if (table->linear && i + 16 <= count) {
            __m128i a = _mm_loadu_si128((const __m128i *)(coverage + i));
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(a, opaque)) == 0xffff) {
                linear16(rgb + 3 * i, k, cs);
                i += 16;
                continue;
            }
        }
#endif
        /* Runs of 8: a stroke's box is mostly uncovered. */
        if (i + 8 <= count) {
            uint64_t eight;
            memcpy(&eight, coverage + i, 8);
            if (eight == 0) { i += 8; continue; }
        }
        uint8_t *p = rgb + 3 * i, a = coverage[i];
        if (a == 255) {
            p[0] = red[p[0]];
            p[1] = green[p[1]];
            p[2] = blue[p[2]];
        } else if (a != 0) {
            const float k = (float)a * scale, inverse = 1.0f - color[3] * k;
            for (int ch = 0; ch < 3; ch++) p[ch] = over(color[ch] * k, inverse, p[ch]);
        }
        i++;
    }
}
