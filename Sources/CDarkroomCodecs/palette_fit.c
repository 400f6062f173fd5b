/*
 * How well a palette already built serves other pixels: the squared RGB distance from a sample of
 * them to their nearest entry. An animated GIF's frames mostly share their colours, and building a
 * palette (libimagequant's histogram, median cut and k-means) is most of a frame's cost, so a frame
 * whose sample the previous palette fits about as well as it fitted its own frame keeps it. libvips'
 * cgifsave reuses palettes too, but decides after building the new one.
 */
#include "internal.h"

#include <string.h>

/* About this many pixels are sampled, on a regular grid over the rectangle. */
#define SAMPLES 8192

void dr_palette_fit_set(dr_palette_fit *fit, const unsigned char (*rgba)[4], int count) {
    memset(fit, 0, sizeof *fit);
    for (int i = 0; i < count && i < 256; i++) {
        if (rgba[i][3] < 128) {
            fit->has_transparent = 1;
            continue;
        }
        fit->r[fit->count] = rgba[i][0];
        fit->g[fit->count] = rgba[i][1];
        fit->b[fit->count] = rgba[i][2];
        fit->count++;
    }
    /* Padded to a multiple of 8 with copies of entry 0, so the inner loop runs whole vectors
     * without changing any minimum. */
    fit->padded = fit->count;
    while (fit->count > 0 && fit->padded % 8 != 0) {
        fit->r[fit->padded] = fit->r[0];
        fit->g[fit->padded] = fit->g[0];
        fit->b[fit->padded] = fit->b[0];
        fit->padded++;
    }
}

dr_palette_error dr_palette_fit_error(const dr_palette_fit *fit, const unsigned char *rgba, int width, int x0, int y0,
                                      int w, int h) {
    dr_palette_error e = {0, 0, 0};
    if (w <= 0 || h <= 0) return e;
    int step = 1;
    while ((long)(w / step + 1) * (long)(h / step + 1) > SAMPLES) step++;
    double sum = 0;
    long opaque = 0;
    int n = fit->padded;
    for (int y = y0; y < y0 + h; y += step) {
        const unsigned char *row = rgba + (size_t)y * (size_t)width * 4;
        for (int x = x0; x < x0 + w; x += step) {
            const unsigned char *p = row + (size_t)x * 4;
            if (p[3] < 128) {
                e.transparent_missing |= !fit->has_transparent;
                continue;
            }
            int r = p[0], g = p[1], b = p[2], best = 3 * 255 * 255 + 1;
            for (int i = 0; i < n; i++) {
                int dr = fit->r[i] - r, dg = fit->g[i] - g, db = fit->b[i] - b;
                int d = dr * dr + dg * dg + db * db;
                best = d < best ? d : best;
            }
            sum += best;
            e.max = best > e.max ? best : e.max;
            opaque++;
        }
    }
    e.mean = opaque > 0 ? sum / (double)opaque : 0;
    return e;
}
