#include "darkroom_draw.h"
#include <cairo.h>
#include <stdio.h>
#include <string.h>

int32_t dr_coverage_stride(int32_t width) { return cairo_format_stride_for_width(CAIRO_FORMAT_A8, width > 0 ? width : 1); }

static void append_path(cairo_t *cr, const dr_path_element *path, int32_t count) {
    cairo_new_path(cr);
    for (int32_t i = 0; i < count; i++) {
        const dr_path_element *e = &path[i];
        switch (e->op) {
        case DR_PATH_MOVE: cairo_move_to(cr, e->x[0], e->y[0]); break;
        case DR_PATH_LINE: cairo_line_to(cr, e->x[0], e->y[0]); break;
        case DR_PATH_CURVE: cairo_curve_to(cr, e->x[0], e->y[0], e->x[1], e->y[1], e->x[2], e->y[2]); break;
        case DR_PATH_CLOSE: cairo_close_path(cr); break;
        default: break;
        }
    }
}

static void apply_stroke(cairo_t *cr, const dr_stroke_style *s) {
    cairo_set_line_width(cr, s->width);
    cairo_set_line_join(cr, s->join == DR_JOIN_ROUND ? CAIRO_LINE_JOIN_ROUND
                            : s->join == DR_JOIN_BEVEL ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, s->miter_limit);
    cairo_set_line_cap(cr, s->cap == DR_CAP_ROUND ? CAIRO_LINE_CAP_ROUND
                           : s->cap == DR_CAP_SQUARE ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
    cairo_set_dash(cr, s->dash_count > 0 ? s->dash : NULL, s->dash_count > 0 ? s->dash_count : 0, s->dash_offset);
}

int dr_path_coverage(const dr_path_element *path, int32_t count, int32_t fill_rule, const dr_stroke_style *stroke,
                     int32_t x0, int32_t y0, int32_t width, int32_t height, uint8_t *coverage, int32_t stride,
                     char *error, size_t error_size) {
    if (width <= 0 || height <= 0) return 0;
    memset(coverage, 0, (size_t)stride * (size_t)height);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(coverage, CAIRO_FORMAT_A8, width, height, stride);
    cairo_t *cr = cairo_create(surface);
    /* The rectangle's pixel (0, 0) is the image's (x0, y0): only it is rasterised. */
    cairo_translate(cr, -(double)x0, -(double)y0);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    append_path(cr, path, count);
    cairo_set_source_rgba(cr, 0, 0, 0, 1);
    if (stroke) {
        apply_stroke(cr, stroke);
        cairo_stroke(cr);
    } else {
        cairo_set_fill_rule(cr, fill_rule == DR_FILL_EVEN_ODD ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        cairo_fill(cr);
    }
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo: %s", cairo_status_to_string(status));
        return -1;
    }
    return 0;
}

void dr_path_extents(const dr_path_element *path, int32_t count, const dr_stroke_style *stroke,
                     double *x0, double *y0, double *x1, double *y1) {
    /* A 1×1 surface is enough: extents are computed on the path, not on pixels. */
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(surface);
    append_path(cr, path, count);
    if (stroke) {
        apply_stroke(cr, stroke);
        cairo_stroke_extents(cr, x0, y0, x1, y1);
    } else {
        cairo_fill_extents(cr, x0, y0, x1, y1);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
}
