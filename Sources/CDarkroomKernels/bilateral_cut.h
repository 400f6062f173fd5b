/*
 * What the range levels (bilateral_levels.c) and their coarse grid (bilateral_grid.c) share, so
 * that the grid drops exactly the weights the levels drop.
 */
#ifndef DARKROOM_BILATERAL_CUT_H
#define DARKROOM_BILATERAL_CUT_H

/* A value outside the levels: its interpolation weights are all 0. */
#define OUTSIDE 1e9f

/* Weights below exp(−CUT) (7 sigmas) count as 0, so that a level skips the blocks whose values
   all lie farther from it: dropped, they move no output by more than about 1e-6 (a pixel's
   levels lie within 2 spacings of its value, its dropped neighbours 5.8 sigmas or more from it). */
#define CUT 24.5f

#endif
