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

#endif
