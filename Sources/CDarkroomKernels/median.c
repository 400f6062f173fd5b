/*
 * The 3×3 median of float RGBA rows, each channel by itself: Devillard's opt_med9 network of 19
 * min/max pairs, on all four channels of a pixel at once (SSE's minps/maxps, in every x86-64;
 * plain C elsewhere), since Swift's generic pointwiseMin/pointwiseMax are not turned into those
 * instructions.
 *
 * Wider squares slide a histogram along the row (Huang): 256 bins on rows read as decoded
 * (8-bit), here; on float rows a bit for each sample's place in the block's sorted order
 * (median_histogram.c).
 */
#include "include/darkroom_kernels.h"

#include <string.h>

#if defined(__x86_64__)
#include <xmmintrin.h>
typedef __m128 v4;
#define LOAD(p) _mm_loadu_ps(p)
#define STORE(p, v) _mm_storeu_ps(p, v)
#define VMIN(a, b) _mm_min_ps(a, b)
#define VMAX(a, b) _mm_max_ps(a, b)
#else
typedef struct { float v[4]; } v4;
static inline v4 LOAD(const float *p) { v4 r; for (int i = 0; i < 4; i++) r.v[i] = p[i]; return r; }
static inline void STORE(float *p, v4 a) { for (int i = 0; i < 4; i++) p[i] = a.v[i]; }
static inline v4 VMIN(v4 a, v4 b) { v4 r; for (int i = 0; i < 4; i++) r.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i]; return r; }
static inline v4 VMAX(v4 a, v4 b) { v4 r; for (int i = 0; i < 4; i++) r.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i]; return r; }
#endif

#define SORT(a, b) do { v4 lo_ = VMIN(a, b); b = VMAX(a, b); a = lo_; } while (0)

void dr_median3_row(const float *above, const float *row, const float *below, int count, float *out) {
    for (int x = 0; x < count; x++) {
        const size_t o = 4 * (size_t)x;
        v4 p0 = LOAD(above + o), p1 = LOAD(above + o + 4), p2 = LOAD(above + o + 8);
        v4 p3 = LOAD(row + o), p4 = LOAD(row + o + 4), p5 = LOAD(row + o + 8);
        v4 p6 = LOAD(below + o), p7 = LOAD(below + o + 4), p8 = LOAD(below + o + 8);
        SORT(p1, p2); SORT(p4, p5); SORT(p7, p8);
        SORT(p0, p1); SORT(p3, p4); SORT(p6, p7);
        SORT(p1, p2); SORT(p4, p5); SORT(p7, p8);
        SORT(p0, p3); SORT(p5, p8); SORT(p4, p7);
        SORT(p3, p6); SORT(p1, p4); SORT(p2, p5);
        SORT(p4, p7); SORT(p4, p2); SORT(p6, p4);
        SORT(p4, p2);
        STORE(out + o, p4);
    }
}

static inline int clamp_column(int x, int first, int available) {
    return x < first ? 0 : x >= first + available ? available - 1 : x - first;
}

void dr_median_rgb8_row(const unsigned char *const *rows, int radius, int first, int available, int x0, int count,
                        float *out) {
    if (count <= 0) return;
    const int side = 2 * radius + 1, k = side * side / 2;
    unsigned short hist[3][256];
    memset(hist, 0, sizeof hist);
    for (int r = 0; r < side; r++)
        for (int dx = -radius; dx <= radius; dx++) {
            const unsigned char *p = rows[r] + 3 * clamp_column(x0 + dx, first, available);
            hist[0][p[0]]++; hist[1][p[1]]++; hist[2][p[2]]++;
        }
    /* Per channel: the median's bin m and how many samples lie below it. */
    int m[3], below[3];
    for (int c = 0; c < 3; c++) {
        m[c] = 0; below[c] = 0;
        while (below[c] + hist[c][m[c]] <= k) below[c] += hist[c][m[c]++];
    }
    for (int x = 0;; x++) {
        for (int c = 0; c < 3; c++) out[4 * (size_t)x + c] = (float)m[c] / 255.0f;
        out[4 * (size_t)x + 3] = 1;
        if (x + 1 == count) break;
        const int leaving = clamp_column(x0 + x - radius, first, available);
        const int entering = clamp_column(x0 + x + 1 + radius, first, available);
        for (int r = 0; r < side; r++) {
            const unsigned char *o = rows[r] + 3 * leaving, *n = rows[r] + 3 * entering;
            for (int c = 0; c < 3; c++) {
                hist[c][o[c]]--; below[c] -= o[c] < m[c];
                hist[c][n[c]]++; below[c] += n[c] < m[c];
            }
        }
        for (int c = 0; c < 3; c++) {
            while (below[c] > k) below[c] -= hist[c][--m[c]];
            while (below[c] + hist[c][m[c]] <= k) below[c] += hist[c][m[c]++];
        }
    }
}
