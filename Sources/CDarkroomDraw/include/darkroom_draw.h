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

/* The bounding box of the filled path (stroke NULL) or of its stroke, in image coordinates, as
   cairo computes it (fill_extents / stroke_extents, so joins, caps and miters are included). */
void dr_path_extents(const dr_path_element *path, int32_t count, const dr_stroke_style *stroke,
                     double *x0, double *y0, double *x1, double *y1);

/* A reusable A8 surface over one rectangle of the image, for the many coverages one strip
   needs (every shape that reaches it): created once per strip instead of once per shape. */
typedef struct dr_canvas dr_canvas;

/* A canvas over x0, y0, width × height (image coordinates); NULL when out of memory. */
dr_canvas *dr_canvas_create(int32_t x0, int32_t y0, int32_t width, int32_t height);
void dr_canvas_destroy(dr_canvas *canvas);
/* Coverage bytes: pixel (x0 + col, y0 + row) at data[row * stride + col]. */
const uint8_t *dr_canvas_data(const dr_canvas *canvas);
int32_t dr_canvas_stride(const dr_canvas *canvas);

/* Clears the canvas's part `ax, ay, aw × ah` (image coordinates, inside the canvas) and
   rasterises the path's fill (stroke NULL) or stroke coverage there, and nowhere else.
   Returns 0, or -1 with a message in `error`. */
int dr_canvas_coverage(dr_canvas *canvas, const dr_path_element *path, int32_t count, int32_t fill_rule,
                       const dr_stroke_style *stroke, int32_t ax, int32_t ay, int32_t aw, int32_t ah,
                       char *error, size_t error_size);

#endif
