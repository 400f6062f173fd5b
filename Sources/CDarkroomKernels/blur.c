/*
 * The two 1-D passes of a symmetric blur on float RGBA rows (gaussian_blur, unsharp_mask,
 * drop_shadow). Every channel has the same weights, so a row is a plain array of floats and
 * tap k is 4·k floats away. The sum for a block of output floats is kept in registers over all
 * taps and stored once (the Swift loop it replaces added each tap into memory), mirrored taps
 * share one multiply, and with AVX2 and FMA (chosen at run time; the baseline is SSE2) eight
 * floats — two pixels — take one instruction. The arithmetic and its order are those of a float
 * convolution, so the result is the exact sampled Gaussian to float rounding, not an
 * approximation. The pass down from 8-bit rows (an opaque source as decoded) sums in fixed
 * point instead, with the weights rounded to 1/32767 of the centre's (down_fixed_avx2): each
 * output is off the float sum by at most (2h + 1) / 2 of that step, under 1e-4 of full scale
 * for any sigma, and the samples need no widened copy.
 */
#include "include/darkroom_kernels.h"
#include "cpu_features.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* Tap k (negative: before) of float i of the output block: in the pass down, row k away in the
 * table of row pointers (rows[h + k], column o + i); in the pass across, 4·k floats away on the
 * same row, computed rather than loaded from a table (two loads fewer per tap, and loads are
 * what the loop waits on). `across` is a constant at each call, so each pass compiles to its own
 * addressing. */
__attribute__((always_inline, target("avx2,fma")))
static inline const float *tap(const float *const *centre, const float *row, size_t o, int k, int i, int across) {
    return across ? row + i + 4 * k : centre[k] + o + (size_t)i;
}

/* Sums over taps for 32 floats (8 pixels) at once: four accumulators hide the FMA latency;
 * mirrored taps share one multiply. Both passes, in the same order. */
__attribute__((always_inline, target("avx2,fma")))
static inline void symmetric_avx2(const float *const *centre, const float *row, size_t o, const float *w, int h,
                                  int count, float *out, int across) {
    const int n = 4 * count;
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        const float *c = tap(centre, row, o, 0, i, across);
        __m256 c0 = _mm256_set1_ps(w[0]);
        __m256 s0 = _mm256_mul_ps(c0, _mm256_loadu_ps(c));
        __m256 s1 = _mm256_mul_ps(c0, _mm256_loadu_ps(c + 8));
        __m256 s2 = _mm256_mul_ps(c0, _mm256_loadu_ps(c + 16));
        __m256 s3 = _mm256_mul_ps(c0, _mm256_loadu_ps(c + 24));
        for (int k = 1; k <= h; k++) {
            const __m256 wk = _mm256_set1_ps(w[k]);
            const float *b = tap(centre, row, o, -k, i, across), *a = tap(centre, row, o, k, i, across);
            s0 = _mm256_fmadd_ps(wk, _mm256_add_ps(_mm256_loadu_ps(b), _mm256_loadu_ps(a)), s0);
            s1 = _mm256_fmadd_ps(wk, _mm256_add_ps(_mm256_loadu_ps(b + 8), _mm256_loadu_ps(a + 8)), s1);
            s2 = _mm256_fmadd_ps(wk, _mm256_add_ps(_mm256_loadu_ps(b + 16), _mm256_loadu_ps(a + 16)), s2);
            s3 = _mm256_fmadd_ps(wk, _mm256_add_ps(_mm256_loadu_ps(b + 24), _mm256_loadu_ps(a + 24)), s3);
        }
        _mm256_storeu_ps(out + i, s0);
        _mm256_storeu_ps(out + i + 8, s1);
        _mm256_storeu_ps(out + i + 16, s2);
        _mm256_storeu_ps(out + i + 24, s3);
    }
    for (; i < n; i += 4) {
        __m128 s = _mm_mul_ps(_mm_set1_ps(w[0]), _mm_loadu_ps(tap(centre, row, o, 0, i, across)));
        for (int k = 1; k <= h; k++)
            s = _mm_fmadd_ps(_mm_set1_ps(w[k]),
                             _mm_add_ps(_mm_loadu_ps(tap(centre, row, o, -k, i, across)), _mm_loadu_ps(tap(centre, row, o, k, i, across))), s);
        _mm_storeu_ps(out + i, s);
    }
}

/* The pass down: rows[h + k] is the row k away from the output row; column o + i is summed into out[i]. */
__attribute__((target("avx2,fma")))
static void down_avx2(const float *const *rows, size_t o, const float *w, int h, int count, float *out) {
    symmetric_avx2(rows + h, NULL, o, w, h, count, out, 0);
}

/* The pass across: the taps either side on the row itself. */
__attribute__((target("avx2,fma")))
static void across_avx2(const float *in, const float *w, int h, int count, float *out) {
    symmetric_avx2(NULL, in, 0, w, h, count, out, 1);
}

/* 8-bit samples to floats, unscaled (the weights carry the 1/255). */
__attribute__((target("avx2,fma")))
static void widen_avx2(const uint8_t *s, int n, float *d) {
    int i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(d + i, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(s + i)))));
    for (; i < n; i++) d[i] = s[i];
}

/* R G B sums to opaque RGBA pixels (the load reads one float past each pixel, inside `sum`). */
__attribute__((target("avx2,fma")))
static void opaque_avx2(const float *sum, int n, float *dst) {
    const __m128 one = _mm_set1_ps(1.0f);
    for (int i = 0; i < n; i++) _mm_storeu_ps(dst + 4 * i, _mm_blend_ps(_mm_loadu_ps(sum + 3 * i), one, 8));
}

/* The pass down on 8-bit samples in fixed point, 16 samples at a time: a sample and its mirror
 * are added as 16-bit integers (at most 510), two taps' sums are interleaved and multiplied by
 * their two 16-bit weights with one madd into 32-bit sums (at most 255 × the weights' total,
 * which fixed_weights keeps below 2^31), converted to float once and scaled. rows[h + k] is the
 * row k away; `pairs` holds (h + 2) / 2 weight pairs (w[2j] low, w[2j + 1] high; the centre's
 * sample is not doubled, so its pair takes the centre row alone). Samples 0 … 16·blocks − 1. */
__attribute__((target("avx2,fma")))
static void down_fixed_avx2(const uint8_t *const *rows, size_t o, const int32_t *pairs, int h, int blocks,
                            float scale, float *out) {
    const uint8_t *const *centre = rows + h;
    const __m256 s = _mm256_set1_ps(scale);
    for (int b = 0; b < blocks; b++) {
        const size_t at = o + 16 * (size_t)b;
        __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
        for (int k = 0; k <= h; k += 2) {
            /* Taps k and k + 1 (k + 1 past the end weighs 0). */
            __m256i u = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(centre[k] + at)));
            if (k > 0) u = _mm256_add_epi16(u, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(centre[-k] + at))));
            __m256i v = _mm256_setzero_si256();
            if (k + 1 <= h)
                v = _mm256_add_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(centre[k + 1] + at))),
                                     _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(centre[-k - 1] + at))));
            const __m256i w = _mm256_set1_epi32(pairs[k / 2]);
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(u, v), w));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(u, v), w));
        }
        /* The unpacks work within 128-bit lanes: lo holds samples 0–3 and 8–11, hi 4–7 and 12–15. */
        const __m256i first = _mm256_permute2x128_si256(lo, hi, 0x20), second = _mm256_permute2x128_si256(lo, hi, 0x31);
        _mm256_storeu_ps(out + 16 * b, _mm256_mul_ps(_mm256_cvtepi32_ps(first), s));
        _mm256_storeu_ps(out + 16 * b + 8, _mm256_mul_ps(_mm256_cvtepi32_ps(second), s));
    }
}
#endif

/* Fixed-point weights for down_fixed_avx2: the centre's scaled to 32767, the others in
 * proportion (rounded), paired; *scale undoes the scaling and the 1/255. 0 when the weights'
 * total times 255 would not fit 32 bits (a blur so wide that its centre weight is below
 * 1/260: sigma past about 100, or a box past 519 pixels) or h is past MAX_FIXED_REACH. */
enum { MAX_FIXED_REACH = 256 };
static int fixed_weights(const float *weights, int h, int32_t *pairs, float *scale) {
    if (h > MAX_FIXED_REACH || weights[0] <= 0) return 0;
    const double unit = 32767.0 / weights[0];
    int64_t total = 0;
    int16_t q[MAX_FIXED_REACH + 2];
    for (int k = 0; k <= h; k++) {
        double v = weights[k] * unit + 0.5;
        q[k] = (int16_t)(v > 32767 ? 32767 : v);
        total += (k == 0 ? 1 : 2) * (int64_t)q[k];
    }
    q[h + 1] = 0;
    if (total * 255 >= INT32_MAX) return 0;
    for (int j = 0; 2 * j <= h; j++)
        pairs[j] = (int32_t)((uint32_t)(uint16_t)q[2 * j] | (uint32_t)(uint16_t)q[2 * j + 1] << 16);
    *scale = (float)(1.0 / (255.0 * (double)total));
    return 1;
}

/* Plain C in the same order (one float at a time; the compiler vectorises the inner loop). */
static void across_c(const float *in, const float *w, int h, int count, float *out) {
    const int n = 4 * count;
    for (int i = 0; i < n; i++) {
        float s = w[0] * in[i];
        for (int k = 1; k <= h; k++) s += w[k] * (in[i - 4 * k] + in[i + 4 * k]);
        out[i] = s;
    }
}

static void down_c(const float *const *rows, size_t o, const float *w, int h, int count, float *out) {
    const int n = 4 * count;
    const float *const *centre = rows + h;
    for (int i = 0; i < n; i++) {
        float s = w[0] * centre[0][o + i];
        for (int k = 1; k <= h; k++) s += w[k] * (centre[-k][o + i] + centre[k][o + i]);
        out[i] = s;
    }
}


void dr_blur_across(const float *in, const float *weights, int h, int count, float *out) {
#if defined(__x86_64__)
    if (dr_has_avx2_fma()) {
        across_avx2(in, weights, h, count, out);
        return;
    }
#endif
    across_c(in, weights, h, count, out);
}

/* Columns this many pixels wide at a time (512 bytes a row): the 2h + rowCount rows of a chunk
 * stay in the core's L1 cache while every output row of the strip reads them, where whole rows (80 KB
 * each on a 5000-px image, 37 of them for sigma 5) came from memory for every output row. */
enum { CHUNK = 32 };

void dr_blur_down(const float *const *rows, int rowCount, const float *weights, int h, int count,
                  float *out, ptrdiff_t outStride) {
    const int avx = dr_has_avx2_fma();
    for (int x = 0; x < count; x += CHUNK) {
        const int n = count - x < CHUNK ? count - x : CHUNK;
        const size_t o = 4 * (size_t)x;
        /* The next chunk of every row, fetched while this one is summed: 2h + rowCount streams
         * are more than the hardware prefetcher follows, and the rows come from L3 or memory. */
        if (x + CHUNK < count) {
            const int m = (count - x - CHUNK < CHUNK ? count - x - CHUNK : CHUNK) * 16;
            for (int j = 0; j < rowCount + 2 * h; j++)
                for (int b = 0; b < m; b += 64) __builtin_prefetch((const char *)(rows[j] + o + 4 * CHUNK) + b);
        }
        for (int y = 0; y < rowCount; y++) {
            float *dst = out + (size_t)y * (size_t)outStride + o;
#if defined(__x86_64__)
            if (avx) { down_avx2(rows + y, o, weights, h, n, dst); continue; }
#endif
            down_c(rows + y, o, weights, h, n, dst);
        }
    }
    (void)avx;
}

#if defined(__x86_64__)
/* dr_blur_down_rgb8 in fixed point (down_fixed_avx2), straight from the rows as decoded: no
 * widened copy. Column chunks as in dr_blur_down, the next one prefetched; a chunk's samples
 * past the last whole 16 (the image's right edge) are summed one by one, in the same integers. */
__attribute__((target("avx2,fma")))
static void down_rgb8_fixed(const uint8_t *const *rows, int rowCount, const int32_t *pairs, int h, int count,
                            float scale, float *sum, float *out, ptrdiff_t outStride) {
    const int span = rowCount + 2 * h;
    for (int x = 0; x < count; x += CHUNK) {
        const int n = count - x < CHUNK ? count - x : CHUNK;
        const size_t o = 3 * (size_t)x;
        if (x + CHUNK < count) {
            const int m = 3 * (count - x - CHUNK < CHUNK ? count - x - CHUNK : CHUNK);
            for (int j = 0; j < span; j++)
                for (int b = 0; b < m + 63; b += 64) __builtin_prefetch(rows[j] + o + 3 * CHUNK + b);
        }
        const int samples = 3 * n, blocks = samples / 16;
        for (int y = 0; y < rowCount; y++) {
            const uint8_t *const *r = rows + y;
            down_fixed_avx2(r, o, pairs, h, blocks, scale, sum);
            for (int i = 16 * blocks; i < samples; i++) {
                int32_t t = 0;
                for (int k = 0; k <= h; k++) {
                    const int32_t w = (int16_t)(k % 2 ? pairs[k / 2] >> 16 : pairs[k / 2] & 0xFFFF);
                    t += w * (k == 0 ? r[h][o + i] : r[h + k][o + i] + r[h - k][o + i]);
                }
                sum[i] = (float)t * scale;
            }
            opaque_avx2(sum, n, out + (size_t)y * (size_t)outStride + 4 * (size_t)x);
        }
    }
}
#endif

void dr_blur_down_rgb8(const uint8_t *const *rows, int rowCount, const float *weights, int h, int count,
                       float *scratch, const float **window, float *out, ptrdiff_t outStride) {
    const int avx = dr_has_avx2_fma();
    const int span = rowCount + 2 * h, stride = 3 * CHUNK + 4;
#if defined(__x86_64__)
    int32_t pairs[MAX_FIXED_REACH / 2 + 1];
    float scale;
    if (avx && fixed_weights(weights, h, pairs, &scale)) {
        down_rgb8_fixed(rows, rowCount, pairs, h, count, scale, scratch, out, outStride);
        return;
    }
#endif
    /* Weights × 1/255: the samples are summed as read. */
    float *w = scratch + (size_t)(span + 1) * stride;
    for (int k = 0; k <= h; k++) w[k] = weights[k] * (1.0f / 255.0f);
    float *sum = scratch + (size_t)span * stride;
    for (int x = 0; x < count; x += CHUNK) {
        const int n = count - x < CHUNK ? count - x : CHUNK;
        /* The next chunk of every row, fetched while this one is widened and summed (as in
         * dr_blur_down: the 2h + rowCount rows are more streams than the prefetcher follows). */
        if (x + CHUNK < count) {
            const int m = 3 * (count - x - CHUNK < CHUNK ? count - x - CHUNK : CHUNK);
            for (int j = 0; j < span; j++)
                for (int b = 0; b < m + 63; b += 64) __builtin_prefetch(rows[j] + 3 * (size_t)(x + CHUNK) + b);
        }
        /* This chunk of every row as float samples (R G B R G B …), widened once. */
        for (int j = 0; j < span; j++) {
            const uint8_t *s = rows[j] + 3 * (size_t)x;
            float *d = scratch + (size_t)j * stride;
#if defined(__x86_64__)
            if (avx) widen_avx2(s, 3 * n, d);
            else
#endif
            for (int i = 0; i < 3 * n; i++) d[i] = s[i];
            for (int i = 3 * n; i < stride; i++) d[i] = 0;
            window[j] = d;
        }
        const int quads = (3 * n + 3) / 4;  /* the float kernels count 4 floats a "pixel" */
        for (int y = 0; y < rowCount; y++) {
            float *dst = out + (size_t)y * (size_t)outStride + 4 * (size_t)x;
#if defined(__x86_64__)
            if (avx) {
                down_avx2(window + y, 0, w, h, quads, sum);
                opaque_avx2(sum, n, dst);
                continue;
            }
#endif
            down_c(window + y, 0, w, h, quads, sum);
            for (int i = 0; i < n; i++) {
                dst[4 * i] = sum[3 * i];
                dst[4 * i + 1] = sum[3 * i + 1];
                dst[4 * i + 2] = sum[3 * i + 2];
                dst[4 * i + 3] = 1.0f;
            }
        }
    }
    (void)avx;
}
