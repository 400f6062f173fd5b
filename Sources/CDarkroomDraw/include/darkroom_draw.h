#ifndef DARKROOM_DRAW_H
#define DARKROOM_DRAW_H
/* darkroom's drawing shims over cairo, Pango and librsvg. Swift sees only these plain-C
   functions and structs: no GObject, no GError, no cairo_t lifetimes across the boundary. */

#include <stddef.h>
#include <stdint.h>

/* The cairo version string, e.g. "1.16.0" (for `darkroom --version` and the tests). */
const char *dr_draw_cairo_version(void);

/* One element of a path, in image pixel coordinates (y down, pixel (i, j) covers
   [i, i+1) × [j, j+1)). A curve is a cubic Bézier from the current point through the two
   control points p[0], p[1] to p[2]; move and line use p[0]; close uses none. */
enum dr_path_op { DR_PATH_MOVE = 0, DR_PATH_LINE = 1, DR_PATH_CURVE = 2, DR_PATH_CLOSE = 3 };

typedef struct {
    int32_t op;
    double x[3], y[3];
} dr_path_element;

enum dr_fill_rule { DR_FILL_NONZERO = 0, DR_FILL_EVEN_ODD = 1 };
enum dr_line_join { DR_JOIN_MITER = 0, DR_JOIN_ROUND = 1, DR_JOIN_BEVEL = 2 };
enum dr_line_cap { DR_CAP_BUTT = 0, DR_CAP_ROUND = 1, DR_CAP_SQUARE = 2 };

/* How a path is stroked (cairo's stroke parameters, which are Quartz's and SVG's). */
typedef struct {
    double width;
    int32_t join;
    double miter_limit;
    int32_t cap;
    const double *dash; /* on/off lengths, or NULL */
    int32_t dash_count;
    double dash_offset;
} dr_stroke_style;

/* Antialiased coverage of a path, filled (`stroke` NULL, with `fill_rule`) or stroked (with
   `stroke`), over the rectangle x0, y0, width × height of the image: coverage[row * stride + col]
   for pixel (x0 + col, y0 + row), 0 (outside) … 255 (inside). `stride` is at least
   cairo_format_stride_for_width(CAIRO_FORMAT_A8, width): see dr_coverage_stride. Only the
   rectangle is rasterised, so a strip costs what its pixels cost. Returns 0, or -1 with a
   message in `error` (cairo out of memory, an invalid dash). */
int dr_path_coverage(const dr_path_element *path, int32_t count, int32_t fill_rule, const dr_stroke_style *stroke,
                     int32_t x0, int32_t y0, int32_t width, int32_t height, uint8_t *coverage, int32_t stride,
                     char *error, size_t error_size);

/* The row stride, in bytes, dr_path_coverage needs for `width` pixels. */
int32_t dr_coverage_stride(int32_t width);

/* The bounding box of the filled path (stroke NULL) or of its stroke, in image coordinates, as
   cairo computes it (fill_extents / stroke_extents, so joins, caps and miters are included). */
void dr_path_extents(const dr_path_element *path, int32_t count, const dr_stroke_style *stroke,
                     double *x0, double *y0, double *x1, double *y1);

#endif
