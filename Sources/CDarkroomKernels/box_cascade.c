/*
 * A Gaussian blur whose cost does not grow with sigma: five extended boxes in a row in each
 * direction (Gwosdek, Grewenig, Bruhn and Weickert, "Theoretical foundations of Gaussian
 * convolution by extended box filtering", 2011). Each box is 2r + 1 taps of 1 and an end tap
 * of alpha either side, scaled to sum to 1, with alpha chosen so that the five boxes' variances
 * add up to sigma² exactly; a box costs the same few operations per sample at any width (a
 * running sum: the sample entering added, the one leaving subtracted).
 *
 * The samples are integers (fixed point, DR_EBOX_UNIT to 1.0) and the running sums exact, so a
 * sum reached by sliding equals the one summed afresh: an output row or column is the same
 * whichever row or column a call starts at, and strips, bands and threads cannot change a
 * pixel. Each box's output is rounded back to the integer grid (round-to-nearest of one float
 * expression, the same in the vector and scalar code: no fused multiply-add), a rounding of
 * 1/130560 of full scale per box.
 *
 * One routine (cascade) serves both directions: a line of positions, each holding L lanes of
 * samples side by side. Down the columns, a position is a row and the lanes a chunk of its
 * samples; across the rows, a position is a column and the lanes the channels of a few rows,
 * interleaved, so both directions run eight lanes to a vector instruction.
 */
#include "include/darkroom_kernels.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

void dr_ebox_init(dr_ebox *b, double sigma) {
    const double s2 = sigma * sigma / DR_EBOX_PASSES;
    int r = (int)floor(0.5 * sqrt(12.0 * s2 + 1.0) - 0.5);
    if (r < 0) r = 0;
    /* The box of 2r + 1 ones and alpha at ±(r + 1) has variance
     * (r(r + 1)(2r + 1)/3 + 2 alpha (r + 1)²) / (2r + 1 + 2 alpha); solved for alpha at s2. */
    const double plain = r * (r + 1.0) * (2.0 * r + 1.0) / 3.0;
    double alpha = (s2 * (2.0 * r + 1.0) - plain) / (2.0 * (r + 1.0) * (r + 1.0) - 2.0 * s2);
    if (alpha < 0) alpha = 0;
    const double total = 2.0 * r + 1.0 + 2.0 * alpha;
    b->r = r;
    b->reach = DR_EBOX_PASSES * (r + 1);
    b->centre = (float)(1.0 / total);
    b->end = (float)(alpha / total);
    /* The largest |sample| whose window sum fits 32 bits. */
    double limit = 2147483647.0 / ((2.0 * r + 1.0) * DR_EBOX_UNIT) - 1.0;
    b->limit = (float)(limit < 1 ? 1 : limit);
}

/* One box over n output positions of L lanes: out[p] = round(centre · Σ in[p + 1 … p + 2r + 1]
 * + end · (in[p] + in[p + 2r + 2])). `sum` holds L running sums. */
static void box_c(const int32_t *in, int32_t *out, int n, int L, int r, float centre, float end, int32_t *sum,
                  int from) {
    const size_t w = (size_t)(2 * r + 2) * (size_t)L;
    for (int l = from; l < L; l++) {
        int32_t s = 0;
        for (int k = 1; k <= 2 * r + 1; k++) s += in[(size_t)k * L + l];
        sum[l] = s;
    }
    for (int p = 0; p < n; p++) {
        const int32_t *a = in + (size_t)p * L;
        int32_t *o = out + (size_t)p * L;
        for (int l = from; l < L; l++) {
            const float t = centre * (float)sum[l];
            const float u = end * (float)(a[l] + a[w + l]);
            o[l] = (int32_t)lrintf(t + u);
            sum[l] += a[w + l] - a[L + l];
        }
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void box_avx2(const int32_t *in, int32_t *out, int n, int L, int r, float centre, float end, int32_t *sum) {
    const int vl = L / 8 * 8;
    const size_t w = (size_t)(2 * r + 2) * (size_t)L;
    const __m256 c = _mm256_set1_ps(centre), e = _mm256_set1_ps(end);
    for (int l = 0; l < vl; l += 8) {
        __m256i s = _mm256_setzero_si256();
        for (int k = 1; k <= 2 * r + 1; k++) s = _mm256_add_epi32(s, _mm256_loadu_si256((const __m256i *)(in + (size_t)k * L + l)));
        _mm256_storeu_si256((__m256i *)(sum + l), s);
    }
    for (int p = 0; p < n; p++) {
        const int32_t *a = in + (size_t)p * L;
        int32_t *o = out + (size_t)p * L;
        for (int l = 0; l < vl; l += 8) {
            const __m256i s = _mm256_loadu_si256((const __m256i *)(sum + l));
            const __m256i first = _mm256_loadu_si256((const __m256i *)(a + l));
            const __m256i next = _mm256_loadu_si256((const __m256i *)(a + L + l));
            const __m256i last = _mm256_loadu_si256((const __m256i *)(a + w + l));
            const __m256 t = _mm256_mul_ps(c, _mm256_cvtepi32_ps(s));
            const __m256 u = _mm256_mul_ps(e, _mm256_cvtepi32_ps(_mm256_add_epi32(first, last)));
            _mm256_storeu_si256((__m256i *)(o + l), _mm256_cvtps_epi32(_mm256_add_ps(t, u)));
            _mm256_storeu_si256((__m256i *)(sum + l), _mm256_add_epi32(s, _mm256_sub_epi32(last, next)));
        }
    }
    if (vl < L) box_c(in, out, n, L, r, centre, end, sum, vl);
}
#endif

static int has_avx2(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* The five boxes over `a`, which holds n + 2·reach positions; ping-pongs with `b` and returns
 * the buffer holding the n output positions. */
static const int32_t *cascade(const dr_ebox *bx, int32_t *a, int32_t *b, int n, int L, int32_t *sum) {
    const int avx = has_avx2();
    int m = n + 2 * bx->reach;
    for (int i = 0; i < DR_EBOX_PASSES; i++) {
        m -= 2 * (bx->r + 1);
#if defined(__x86_64__)
        if (avx) box_avx2(a, b, m, L, bx->r, bx->centre, bx->end, sum);
        else
#endif
            box_c(a, b, m, L, bx->r, bx->centre, bx->end, sum, 0);
        int32_t *t = a;
        a = b;
        b = t;
    }
    (void)avx;
    return a;
}

static inline int32_t quantise(const dr_ebox *b, float x) {
    return (int32_t)lrintf(fminf(fmaxf(x, -b->limit), b->limit) * (float)DR_EBOX_UNIT);
}

static inline float level(int32_t q) { return (float)q / (float)DR_EBOX_UNIT; }

/* Pixels down a column chunk, and rows across at a time: sized so a chunk's buffers stay in L2. */
enum { CHUNK = 32, GROUP = 8 };

size_t dr_ebox_scratch(const dr_ebox *b, int rowCount, int count) {
    const size_t down = 2 * (size_t)(rowCount + 2 * b->reach) * (4 * CHUNK) + 4 * CHUNK;
    const size_t across = 2 * (size_t)(count + 2 * b->reach) * (4 * GROUP) + 4 * GROUP;
    return down > across ? down : across;
}

/* Down, from float RGBA rows or their alpha alone (channels 1: lane = pixel), or from 8-bit
 * RGB rows (rgb8: 3 lanes a pixel, alpha 1). */
static void down(const dr_ebox *b, const void *const *rows, int rgb8, int channels, int rowCount, int count,
                 float *out, ptrdiff_t outStride, int32_t *scratch) {
    const int span = rowCount + 2 * b->reach, lanesPerPixel = rgb8 ? 3 : channels;
    for (int x = 0; x < count; x += CHUNK) {
        const int n = count - x < CHUNK ? count - x : CHUNK, L = n * lanesPerPixel;
        int32_t *a = scratch, *c = scratch + (size_t)span * L, *sum = c + (size_t)span * L;
        for (int j = 0; j < span; j++) {
            int32_t *d = a + (size_t)j * L;
            if (rgb8) {
                const uint8_t *s = (const uint8_t *)rows[j] + 3 * (size_t)x;
                for (int i = 0; i < L; i++) d[i] = (int32_t)s[i] << 8;
            } else {
                const float *s = (const float *)rows[j] + 4 * (size_t)x;
                if (channels == 4)
                    for (int i = 0; i < L; i++) d[i] = quantise(b, s[i]);
                else
                    for (int i = 0; i < L; i++) d[i] = quantise(b, s[4 * i + 3]);
            }
        }
        const int32_t *res = cascade(b, a, c, rowCount, L, sum);
        for (int y = 0; y < rowCount; y++) {
            const int32_t *q = res + (size_t)y * L;
            float *dst = out + (size_t)y * (size_t)outStride + 4 * (size_t)x;
            if (rgb8) {
                for (int i = 0; i < n; i++) {
                    dst[4 * i] = level(q[3 * i]);
                    dst[4 * i + 1] = level(q[3 * i + 1]);
                    dst[4 * i + 2] = level(q[3 * i + 2]);
                    dst[4 * i + 3] = 1.0f;
                }
            } else if (channels == 4) {
                for (int i = 0; i < L; i++) dst[i] = level(q[i]);
            } else {
                for (int i = 0; i < n; i++) {
                    dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = 0;
                    dst[4 * i + 3] = level(q[i]);
                }
            }
        }
    }
}

void dr_ebox_down(const dr_ebox *b, const float *const *rows, int rowCount, int count, int alphaOnly,
                  float *out, ptrdiff_t outStride, int32_t *scratch) {
    down(b, (const void *const *)rows, 0, alphaOnly ? 1 : 4, rowCount, count, out, outStride, scratch);
}

void dr_ebox_down_rgb8(const dr_ebox *b, const uint8_t *const *rows, int rowCount, int count, float *out,
                       ptrdiff_t outStride, int32_t *scratch) {
    down(b, (const void *const *)rows, 1, 3, rowCount, count, out, outStride, scratch);
}

void dr_ebox_across(const dr_ebox *b, const float *const *rows, int rowCount, int count, int alphaOnly,
                    const float *tint, float *out, ptrdiff_t outStride, int32_t *scratch) {
    const int channels = alphaOnly ? 1 : 4, span = count + 2 * b->reach;
    for (int y0 = 0; y0 < rowCount; y0 += GROUP) {
        const int g = rowCount - y0 < GROUP ? rowCount - y0 : GROUP, L = g * channels;
        int32_t *a = scratch, *c = scratch + (size_t)span * L, *sum = c + (size_t)span * L;
        for (int k = 0; k < g; k++) {
            const float *s = rows[y0 + k];
            if (channels == 4) {
                for (int p = 0; p < span; p++)
                    for (int ch = 0; ch < 4; ch++) a[(size_t)p * L + 4 * k + ch] = quantise(b, s[4 * p + ch]);
            } else {
                for (int p = 0; p < span; p++) a[(size_t)p * L + k] = quantise(b, s[4 * p + 3]);
            }
        }
        const int32_t *res = cascade(b, a, c, count, L, sum);
        for (int k = 0; k < g; k++) {
            float *dst = out + (size_t)(y0 + k) * (size_t)outStride;
            if (channels == 4) {
                for (int p = 0; p < count; p++)
                    for (int ch = 0; ch < 4; ch++) dst[4 * p + ch] = level(res[(size_t)p * L + 4 * k + ch]);
            } else {
                for (int p = 0; p < count; p++) {
                    const float v = level(res[(size_t)p * L + k]);
                    for (int ch = 0; ch < 4; ch++) dst[4 * p + ch] = tint ? tint[ch] * v : (ch == 3 ? v : 0);
                }
            }
        }
    }
}
