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
 * The five boxes run as one stream (struct stream): a position goes in, each box hands its
 * output straight to the next, and the last one's comes out 2·reach positions later. A box
 * keeps only the 2r + 3 positions its window spans, in a ring, so a call's working set is five
 * rings however long the line: it stays in the core's L2 cache where whole intermediate lines
 * (a band and its halo, for a large sigma) did not. The same stream serves both directions: a
 * line of positions, each holding L lanes of samples side by side. Down the columns, a position
 * is a row and the lanes a chunk of its samples; across the rows, a position is a column and the
 * lanes the channels of a few rows, interleaved, so both directions run eight lanes to a vector
 * instruction.
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
    b->passes = DR_EBOX_PASSES;
    b->reach = DR_EBOX_PASSES * (r + 1);
    b->centre = (float)(1.0 / total);
    b->end = (float)(alpha / total);
    /* The largest |sample| whose window sum fits 32 bits. */
    double limit = 2147483647.0 / ((2.0 * r + 1.0) * DR_EBOX_UNIT) - 1.0;
    b->limit = (float)(limit < 1 ? 1 : limit);
}

/* Round to nearest even, as lrintf in the default rounding mode (and as the vector
 * conversions), without a call into libm where it would not be inlined. */
static inline int32_t round_even(float x) {
#if defined(__x86_64__)
    return _mm_cvtss_si32(_mm_set_ss(x));
#else
    return (int32_t)lrintf(x);
#endif
}

void dr_ebox_init_box(dr_ebox *b, int radius) {
    /* 2·radius − 1 taps and the two ends, all of one weight: the stream's window is then the
     * box itself. */
    const int r = radius < 1 ? 0 : radius - 1;
    b->r = r;
    b->passes = 1;
    b->reach = r + 1;
    b->centre = b->end = (float)(1.0 / (2.0 * r + 3.0));
    /* The window's sum and the two ends' sum both fit 32 bits. */
    double limit = 2147483647.0 / ((2.0 * r + 3.0) * DR_EBOX_UNIT) - 1.0;
    b->limit = (float)(limit < 1 ? 1 : limit);
}

static int has_avx2(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* One output of a box, lanes from..L−1: out = round(centre · sum + end · (first + last)), then
 * the window slides: sum += last − next (next: the position after first, which leaves it). */
static void step_c(const int32_t *first, const int32_t *next, const int32_t *last, int32_t *sum, int32_t *out,
                   int from, int L, float centre, float end) {
    for (int l = from; l < L; l++) {
        const float t = centre * (float)sum[l];
        const float u = end * (float)(first[l] + last[l]);
        out[l] = round_even(t + u);
        sum[l] += last[l] - next[l];
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2"), always_inline))
static inline void step_avx2(const int32_t *first, const int32_t *next, const int32_t *last, int32_t *sum, int32_t *out,
                      int L, float centre, float end) {
    const int vl = L / 8 * 8;
    const __m256 c = _mm256_set1_ps(centre), e = _mm256_set1_ps(end);
    for (int l = 0; l < vl; l += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(sum + l));
        const __m256i f = _mm256_loadu_si256((const __m256i *)(first + l));
        const __m256i n = _mm256_loadu_si256((const __m256i *)(next + l));
        const __m256i z = _mm256_loadu_si256((const __m256i *)(last + l));
        const __m256 t = _mm256_mul_ps(c, _mm256_cvtepi32_ps(s));
        const __m256 u = _mm256_mul_ps(e, _mm256_cvtepi32_ps(_mm256_add_epi32(f, z)));
        _mm256_storeu_si256((__m256i *)(out + l), _mm256_cvtps_epi32(_mm256_add_ps(t, u)));
        _mm256_storeu_si256((__m256i *)(sum + l), _mm256_add_epi32(s, _mm256_sub_epi32(z, n)));
    }
    if (vl < L) step_c(first, next, last, sum, out, vl, L, centre, end);
}
#endif

/* The five boxes as a stream of positions of L lanes. Box s reads ring[s] (ring[0]: the
 * samples put in) and writes ring[s + 1] (the last box: `out`). A ring holds W = 2r + 3
 * positions, the window of one output: for the position q just received, the output is at
 * q − 2r − 2, whose first tap sits in the slot after q's and the next position in the one after
 * that. The first 2r + 2 positions a box receives only fill its window and running sum. */
typedef struct {
    int L, W, r, avx, passes;
    float centre, end;
    int32_t *ring[DR_EBOX_PASSES], *sum[DR_EBOX_PASSES], *out;
    int head[DR_EBOX_PASSES], filled[DR_EBOX_PASSES];
} stream;

/* int32 a stream of L lanes takes (the output has a spare lane for 4-lane loads of 3-lane pixels). */
static size_t stream_size(const dr_ebox *b, int L) {
    return (size_t)b->passes * (size_t)(2 * b->r + 4) * (size_t)L + (size_t)L + 8;
}

static void stream_start(stream *s, const dr_ebox *b, int L, int32_t *scratch) {
    s->L = L;
    s->r = b->r;
    s->passes = b->passes;
    s->W = 2 * b->r + 3;
    s->avx = has_avx2();
    s->centre = b->centre;
    s->end = b->end;
    for (int i = 0; i < s->passes; i++) {
        s->ring[i] = scratch;
        scratch += (size_t)s->W * L;
        s->sum[i] = scratch;
        scratch += L;
        memset(s->sum[i], 0, sizeof(int32_t) * (size_t)L);
        s->head[i] = s->filled[i] = 0;
    }
    s->out = scratch;
    memset(s->out, 0, sizeof(int32_t) * ((size_t)L + 8));
}

/* Where the caller puts the next position's L samples. */
static inline int32_t *stream_slot(stream *s) { return s->ring[0] + (size_t)s->head[0] * s->L; }

/* One box's output for lanes 0 … L − 1 (the signature both steps share). */
typedef void (*box_step)(const int32_t *first, const int32_t *next, const int32_t *last, int32_t *sum, int32_t *out,
                         int L, float centre, float end);

static void step_all_c(const int32_t *first, const int32_t *next, const int32_t *last, int32_t *sum, int32_t *out,
                       int L, float centre, float end) {
    step_c(first, next, last, sum, out, 0, L, centre, end);
}

/* Takes the position put in stream_slot; returns the last box's output for the position
 * 2·reach before it, or NULL while the boxes' windows are still filling. */
__attribute__((always_inline))
static inline const int32_t *push(stream *s, box_step step) {
    const int L = s->L, W = s->W, full = 2 * s->r + 2;
    for (int i = 0; i < s->passes; i++) {
        const int h = s->head[i];
        int32_t *ring = s->ring[i];
        const int32_t *last = ring + (size_t)h * L;
        s->head[i] = h + 1 == W ? 0 : h + 1;
        if (s->filled[i] < full) {
            /* Position 0 is only ever a first tap; 1 … 2r + 1 are the first window's sum. */
            if (s->filled[i] > 0)
                for (int l = 0; l < L; l++) s->sum[i][l] += last[l];
            s->filled[i]++;
            return NULL;
        }
        const int f = h + 1 == W ? 0 : h + 1, n = f + 1 == W ? 0 : f + 1;
        int32_t *out = i + 1 < s->passes ? s->ring[i + 1] + (size_t)s->head[i + 1] * L : s->out;
        step(ring + (size_t)f * L, ring + (size_t)n * L, last, s->sum[i], out, L, s->centre, s->end);
    }
    return s->out;
}

#if defined(__x86_64__)
/* The boxes' steps inlined into one function per position. */
__attribute__((target("avx2")))
static const int32_t *push_avx2(stream *s) { return push(s, step_avx2); }
#endif

static const int32_t *stream_push(stream *s) {
#if defined(__x86_64__)
    if (s->avx) return push_avx2(s);
#endif
    return push(s, step_all_c);
}

static inline int32_t quantise(const dr_ebox *b, float x) {
    return round_even(fminf(fmaxf(x, -b->limit), b->limit) * (float)DR_EBOX_UNIT);
}

static inline float level(int32_t q) { return (float)q / (float)DR_EBOX_UNIT; }

/* Floats to samples and back, n at a time. The vector code is quantise's and level's
 * arithmetic: max then min (a NaN takes -limit, as fmaxf gives it), the product rounded to
 * nearest even, and a division. */
#if defined(__x86_64__)
__attribute__((target("avx2")))
static void quantise_avx2(const dr_ebox *b, const float *s, int n, int32_t *d) {
    const __m256 lo = _mm256_set1_ps(-b->limit), hi = _mm256_set1_ps(b->limit), unit = _mm256_set1_ps((float)DR_EBOX_UNIT);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(s + i), lo), hi);
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_cvtps_epi32(_mm256_mul_ps(x, unit)));
    }
    for (; i < n; i++) d[i] = quantise(b, s[i]);
}

__attribute__((target("avx2")))
static void level_avx2(const int32_t *q, int n, float *d) {
    const __m256 unit = _mm256_set1_ps((float)DR_EBOX_UNIT);
    int i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(d + i, _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(q + i))), unit));
    for (; i < n; i++) d[i] = level(q[i]);
}

/* R G B samples to opaque RGBA floats, n pixels (each load takes the next pixel's R too, or
 * the stream's spare lane, and alpha replaces it). */
__attribute__((target("avx2")))
static void opaque_levels_avx2(const int32_t *q, int n, float *d) {
    const __m128 unit = _mm_set1_ps((float)DR_EBOX_UNIT), one = _mm_set1_ps(1.0f);
    for (int i = 0; i < n; i++) {
        const __m128 v = _mm_div_ps(_mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(q + 3 * i))), unit);
        _mm_storeu_ps(d + 4 * i, _mm_blend_ps(v, one, 8));
    }
}

/* One pixel's four channels (SSE2, the x86-64 baseline). */
static inline void quantise4(const dr_ebox *b, const float *s, int32_t *d) {
    const __m128 x = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(s), _mm_set1_ps(-b->limit)), _mm_set1_ps(b->limit));
    _mm_storeu_si128((__m128i *)d, _mm_cvtps_epi32(_mm_mul_ps(x, _mm_set1_ps((float)DR_EBOX_UNIT))));
}

static inline void level4(const int32_t *q, float *d) {
    _mm_storeu_ps(d, _mm_div_ps(_mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)q)), _mm_set1_ps((float)DR_EBOX_UNIT)));
}
#else
static inline void quantise4(const dr_ebox *b, const float *s, int32_t *d) {
    for (int i = 0; i < 4; i++) d[i] = quantise(b, s[i]);
}

static inline void level4(const int32_t *q, float *d) {
    for (int i = 0; i < 4; i++) d[i] = level(q[i]);
}
#endif

static void to_samples(const dr_ebox *b, const float *s, int n, int32_t *d, int avx) {
#if defined(__x86_64__)
    if (avx) { quantise_avx2(b, s, n, d); return; }
#endif
    (void)avx;
    for (int i = 0; i < n; i++) d[i] = quantise(b, s[i]);
}

static void to_levels(const int32_t *q, int n, float *d, int avx) {
#if defined(__x86_64__)
    if (avx) { level_avx2(q, n, d); return; }
#endif
    (void)avx;
    for (int i = 0; i < n; i++) d[i] = level(q[i]);
}

static void to_opaque_levels(const int32_t *q, int n, float *d, int avx) {
#if defined(__x86_64__)
    if (avx) { opaque_levels_avx2(q, n, d); return; }
#endif
    (void)avx;
    for (int i = 0; i < n; i++) {
        d[4 * i] = level(q[3 * i]);
        d[4 * i + 1] = level(q[3 * i + 1]);
        d[4 * i + 2] = level(q[3 * i + 2]);
        d[4 * i + 3] = 1.0f;
    }
}

/* Lanes a stream carries down the columns: a chunk of 16 pixels of RGBA or RGB (64 or 48
 * lanes), or 64 pixels of alpha alone. With five rings of 2r + 3 positions, sigma 100's
 * stream is 200 KB at 64 lanes. */
enum { CHUNK_COLOUR = 16, CHUNK_ALPHA = 64, MAX_LANES = 64 };
/* Rows across at a time: 16 of RGBA (64 lanes) or 32 of alpha alone. */
enum { GROUP_COLOUR = 16, GROUP_ALPHA = 32 };

size_t dr_ebox_scratch(const dr_ebox *b) {
    return stream_size(b, MAX_LANES);
}

/* Down, from float RGBA rows or their alpha alone (channels 1: lane = pixel), or from 8-bit
 * RGB rows (rgb8: 3 lanes a pixel, alpha 1). */
static void down(const dr_ebox *b, const void *const *rows, int rgb8, int channels, int rowCount, int count,
                 float *out, ptrdiff_t outStride, int32_t *scratch) {
    const int span = rowCount + 2 * b->reach, lanesPerPixel = rgb8 ? 3 : channels, avx = has_avx2();
    const int chunk = channels == 1 ? CHUNK_ALPHA : CHUNK_COLOUR;
    for (int x = 0; x < count; x += chunk) {
        const int n = count - x < chunk ? count - x : chunk, L = n * lanesPerPixel;
        stream s;
        stream_start(&s, b, L, scratch);
        for (int j = 0; j < span; j++) {
            /* The row a few ahead: the rows are far apart, a stride the prefetcher may not follow. */
            if (j + 8 < span)
                __builtin_prefetch(rgb8 ? (const char *)rows[j + 8] + 3 * (size_t)x : (const char *)((const float *)rows[j + 8] + 4 * (size_t)x));
            int32_t *d = stream_slot(&s);
            if (rgb8) {
                const uint8_t *src = (const uint8_t *)rows[j] + 3 * (size_t)x;
                for (int i = 0; i < L; i++) d[i] = (int32_t)src[i] << 8;
            } else {
                const float *src = (const float *)rows[j] + 4 * (size_t)x;
                if (channels == 4) {
                    to_samples(b, src, L, d, avx);
                } else {
                    float alpha[CHUNK_ALPHA];
                    for (int i = 0; i < L; i++) alpha[i] = src[4 * i + 3];
                    to_samples(b, alpha, L, d, avx);
                }
            }
            const int32_t *q = stream_push(&s);
            if (!q) continue;
            float *dst = out + (size_t)(j - 2 * b->reach) * (size_t)outStride + 4 * (size_t)x;
            if (rgb8) {
                to_opaque_levels(q, n, dst, avx);
            } else if (channels == 4) {
                to_levels(q, L, dst, avx);
            } else {
                float alpha[CHUNK_ALPHA];
                to_levels(q, n, alpha, avx);
                for (int i = 0; i < n; i++) {
                    dst[4 * i] = dst[4 * i + 1] = dst[4 * i + 2] = 0;
                    dst[4 * i + 3] = alpha[i];
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

void dr_ebox_across(const dr_ebox *b, const float *const *rows, int available, int start, int rowCount, int count,
                    int alphaOnly, const float *tint, float *out, ptrdiff_t outStride, int32_t *scratch) {
    const int channels = alphaOnly ? 1 : 4, span = count + 2 * b->reach, avx = has_avx2();
    const int group = alphaOnly ? GROUP_ALPHA : GROUP_COLOUR;
    if (available <= 0 || count <= 0) return;
    for (int y0 = 0; y0 < rowCount; y0 += group) {
        const int g = rowCount - y0 < group ? rowCount - y0 : group, L = g * channels;
        stream s;
        stream_start(&s, b, L, scratch);
        for (int p = 0; p < span; p++) {
            /* Past either end of what the row holds, its edge pixel (the input's clamped edge). */
            int c = start + p;
            c = c < 0 ? 0 : c >= available ? available - 1 : c;
            int32_t *d = stream_slot(&s);
            if (channels == 4) {
                for (int k = 0; k < g; k++) quantise4(b, rows[y0 + k] + 4 * (size_t)c, d + 4 * k);
            } else {
                float alpha[GROUP_ALPHA];
                for (int k = 0; k < g; k++) alpha[k] = rows[y0 + k][4 * (size_t)c + 3];
                to_samples(b, alpha, g, d, avx);
            }
            const int32_t *q = stream_push(&s);
            if (!q) continue;
            const size_t o = 4 * (size_t)(p - 2 * b->reach);
            if (channels == 4) {
                for (int k = 0; k < g; k++) level4(q + 4 * k, out + (size_t)(y0 + k) * (size_t)outStride + o);
                continue;
            }
            float alpha[GROUP_ALPHA];
            to_levels(q, g, alpha, avx);
            for (int k = 0; k < g; k++) {
                float *dst = out + (size_t)(y0 + k) * (size_t)outStride + o;
                const float v = alpha[k];
                for (int ch = 0; ch < 4; ch++) dst[ch] = tint ? tint[ch] * v : (ch == 3 ? v : 0);
            }
        }
    }
}
