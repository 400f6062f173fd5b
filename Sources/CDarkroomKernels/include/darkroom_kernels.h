#ifndef DARKROOM_KERNELS_H
#define DARKROOM_KERNELS_H

/*
 * Inner loops of the filter core that Swift's SIMD types compile poorly: integer arithmetic on
 * 8-bit samples. Pure computation, no allocation, no library: the executor calls them from any
 * thread.
 */

#include <stddef.h>
#include <stdint.h>

/* Fixed-point weights carry this many fraction bits (weights of 1 are 1 << 14). */
#define DR_WEIGHT_BITS 14

/*
 * One row of a horizontal resample read straight from 8-bit RGB samples, as libvips' reduceh
 * does for uchar images: output pixel `first + i`, for i in 0 ..< count, is the sum over
 * t < taps of weights[(first + i) * taps + t] × the pixel at row[3 × (start[first + i] + t)],
 * written to out[4 i …] as opaque float RGBA in 0…1 (divided by 255 × 2^DR_WEIGHT_BITS).
 * `taps` is even. The row must have 2 readable bytes after the last pixel any output reads
 * (8-byte loads of two pixels).
 */
void dr_resample_rgb8_across(const uint8_t *row, const int32_t *start, const int16_t *weights,
                             int taps, int first, int count, float *out);

/*
 * One row of a symmetric 1-D blur on float RGBA (4 floats a pixel), weights[0] the centre tap
 * and weights[k] the taps k pixels to either side, k = 1 … h.
 * dr_blur_across: out[p] = Σ weights[|k|] × in[p + k] for pixels p < count, k in −h … h; `in`
 * points at the pixel under output pixel 0 and is readable h pixels before and after the row.
 * dr_blur_down: the same down the columns, for rowCount output rows at once (in column chunks
 * that stay in cache); rows[0 … rowCount + 2h − 1] point at the same column of consecutive input
 * rows, rows[j + h] being the row under output row j, which starts at out + j × outStride floats.
 */
void dr_blur_across(const float *in, const float *weights, int h, int count, float *out);
/*
 * dr_blur_down from rows of 8-bit RGB samples (an opaque source as decoded), written as opaque
 * float RGBA; rows[0 … rowCount + 2h − 1] point at column 0 of the output's columns (edge rows
 * repeated by the caller). `scratch` holds (rowCount + 2h + 1) × (3 × 32 + 4) + h + 1 floats and
 * `window` rowCount + 2h pointers.
 */
void dr_blur_down_rgb8(const uint8_t *const *rows, int rowCount, const float *weights, int h, int count,
                       float *scratch, const float **window, float *out, ptrdiff_t outStride);
void dr_blur_down(const float *const *rows, int rowCount, const float *weights, int h, int count,
                  float *out, ptrdiff_t outStride);

/*
 * The 3×3 median of each channel for `count` float RGBA pixels: above, row and below point at
 * the pixel left of the first output's column in the three input rows (each is read for
 * count + 2 pixels).
 */
void dr_median3_row(const float *above, const float *row, const float *below, int count, float *out);

/*
 * The bilateral filter, channel by channel, for `count` float RGBA pixels by its direct sums:
 * rows[k] (k < 2·reach + 1) points at the pixel `reach` left of the first output's column in row
 * y − reach + k. In each channel a neighbour weighs 2^(spatial[k · side + dx] + rangeScale ×
 * (its value − the centre's)²): both exponents in base 2 (the spatial weight's log2, and
 * log2 e / −2σ²); the output is that channel's weighted mean. `scratch` holds
 * dr_bilateral_row_scratch(reach, count) floats.
 */
enum { DR_BILATERAL_CHUNK = 512 };
size_t dr_bilateral_row_scratch(int reach, int count);
void dr_bilateral_row(const float *const *rows, int reach, const float *spatial, float rangeScale, int count,
                      float *scratch, float *out);

/*
 * The same filter by range levels `spacing` apart (bilateral_levels.c), for `height` rows of
 * `count` pixels: rows[k] (k < height + 2·reach) points at the pixel `reach` left of the first
 * output's column in row y0 − reach + k; output row j starts at out + j × outStride floats.
 * `spatial` is the 1-D spatial weights (2·reach + 1; the 2-D weight is the product of two).
 * Values between DR_BILATERAL_LEVELS_LOW and _HIGH are interpolated between levels; a pixel
 * outside them is summed directly. `scratch` holds dr_bilateral_levels_scratch bytes, aligned
 * for floats. dr_bilateral_level_count is the number of levels between the bounds.
 */
#define DR_BILATERAL_LEVELS_LOW (-0.5f)
#define DR_BILATERAL_LEVELS_HIGH 1.5f
enum { DR_BILATERAL_LEVELS_CHUNK = 128 };
int dr_bilateral_level_low(float spacing);
int dr_bilateral_level_count(float spacing);
size_t dr_bilateral_levels_scratch(int reach, int height, float spacing);
void dr_bilateral_levels(const float *const *rows, int reach, const float *spatial, float rangeScale, float spacing,
                         int count, int height, float *out, ptrdiff_t outStride, void *scratch);

/*
 * The same levels on a coarse spatial grid (bilateral_grid.c), for large radii: each level's
 * planes are summed into cells of cell×cell pixels aligned to the image's origin, blurred by
 * `coarse` (2·coarseReach + 1 weights, in cells) and read back bilinearly. (x0, y0) is the
 * first output pixel's position in the image; rows as for dr_bilateral_levels, with reach
 * dr_bilateral_grid_reach(cell, coarseReach). A pixel outside the levels is summed directly
 * with `spatial` (2·directReach + 1 weights, directReach ≤ reach). `scratch` holds
 * dr_bilateral_grid_scratch bytes, aligned to 32 bytes.
 */
int dr_bilateral_grid_reach(int cell, int coarseReach);
size_t dr_bilateral_grid_scratch(int cell, int coarseReach, int height, float spacing);
void dr_bilateral_grid(const float *const *rows, int reach, int x0, int y0, int cell, const float *coarse, int coarseReach,
                       const float *spatial, int directReach, float rangeScale, float spacing, int count, int height,
                       float *out, ptrdiff_t outStride, void *scratch);

/*
 * The median of each channel over the (2·radius + 1)² square, from 8-bit RGB rows as decoded (Huang's sliding histogram, one of 256 bins
 * per channel: a step moves 2·(2·radius + 1) samples in and out whatever the radius): rows[k]
 * is row y − radius + k of the square (already clamped to the image) at column `first`, and
 * holds the columns first ..< first + available; columns outside them read the nearest one
 * (the image's edge). Writes `count` float RGBA pixels from column x0: v / 255, alpha 1.
 */
void dr_median_rgb8_row(const unsigned char *const *rows, int radius, int first, int available, int x0, int count,
                        float *out);

/*
 * A Gaussian of standard deviation sigma as DR_EBOX_PASSES extended boxes in each direction
 * (box_cascade.c): O(1) a sample in sigma. Samples are fixed point, DR_EBOX_UNIT to 1.0, clamped
 * to ±limit; the result at a pixel does not depend on where a call starts.
 */
enum { DR_EBOX_PASSES = 5, DR_EBOX_UNIT = 65280 };
typedef struct {
    /* Each box is 2r + 1 taps of `centre` and one of `end` either side. */
    int r;
    /* How far the boxes read past an output pixel: passes × (r + 1). */
    int reach;
    float centre, end;
    float limit;
    /* Boxes in a row: DR_EBOX_PASSES for a Gaussian, 1 for a plain box. */
    int passes;
} dr_ebox;
void dr_ebox_init(dr_ebox *b, double sigma);
/* One plain box, the mean of 2·radius + 1 samples (radius ≥ 1): reach radius. */
void dr_ebox_init_box(dr_ebox *b, int radius);
/* int32 scratch for one call (either direction, any size: the boxes' rings, not the lines). */
size_t dr_ebox_scratch(const dr_ebox *b);
/*
 * Down: rows[0 … rowCount + 2·reach − 1] point at the same column of consecutive input rows
 * (float RGBA, or 8-bit RGB as decoded: alpha 1), rows[j + reach] under output row j, which starts
 * at out + j × outStride floats; `count` pixels a row. With alphaOnly, channel 3 alone is blurred
 * and the output is (0, 0, 0, a).
 */
void dr_ebox_down(const dr_ebox *b, const float *const *rows, int rowCount, int count, int alphaOnly,
                  float *out, ptrdiff_t outStride, int32_t *scratch);
void dr_ebox_down_rgb8(const dr_ebox *b, const uint8_t *const *rows, int rowCount, int count, float *out,
                       ptrdiff_t outStride, int32_t *scratch);
/*
 * Across: rows[j] (float RGBA) holds `available` pixels of input row j; output pixel i of row j
 * reads input pixels start + i … start + i + 2·reach, those before the row's first or past its
 * last reading that edge pixel (the edge extended). With alphaOnly, channel 3 alone is blurred
 * and the output is tint × a (tint: 4 floats) or (0, 0, 0, a) without one.
 */
void dr_ebox_across(const dr_ebox *b, const float *const *rows, int available, int start, int rowCount, int count,
                    int alphaOnly, const float *tint, float *out, ptrdiff_t outStride, int32_t *scratch);

/*
 * The median of each channel over the (2·radius + 1)² square for a width × height block of
 * float RGBA pixels, exact (median_histogram.c: a sliding window over the places of the
 * values in their sorted order, a bit each; radius at most 100): rows[k] (k < height +
 * 2·radius) points at the pixel `radius` left of the block's first column in row y0 − radius + k,
 * and holds width + 2·radius pixels. Output row j starts at out + j × outStride floats. NaN
 * counts as 0. `scratch`: dr_median_float_scratch bytes.
 */
size_t dr_median_float_scratch(int radius, int width, int height);
void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch);
/*
 * The instruction-set paths of dr_median_float this processor runs, 1 to 3 (1 the portable
 * one; 2 AVX2 with popcnt; 3 also BMI2's pdep where it is fast): dr_median_float takes the
 * highest. dr_median_float_path runs path `path` (at most what dr_median_float_paths gives), so
 * that tests can hold each to the same output.
 */
int dr_median_float_paths(void);
void dr_median_float_path(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                          void *scratch, int path);

#endif
