/*
 * The 3×3 median of float RGBA rows, each channel by itself: Devillard's opt_med9 network of 19
 * min/max pairs, on all four channels of a pixel at once (SSE's minps/maxps, in every x86-64;
 * plain C elsewhere). Swift's generic pointwiseMin/pointwiseMax were not turned into those
 * instructions and cost 30× more.
 */
#include "include/darkroom_kernels.h"

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
