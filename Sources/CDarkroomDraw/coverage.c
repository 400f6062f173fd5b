#include "darkroom_draw.h"
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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

struct dr_canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    int32_t x0, y0;
};

dr_canvas *dr_canvas_create(int32_t x0, int32_t y0, int32_t width, int32_t height) {
    dr_canvas *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->surface = cairo_image_surface_create(CAIRO_FORMAT_A8, width > 0 ? width : 1, height > 0 ? height : 1);
    c->cr = cairo_create(c->surface);
    if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) { dr_canvas_destroy(c); return NULL; }
    c->x0 = x0;
    c->y0 = y0;
    cairo_translate(c->cr, -(double)x0, -(double)y0);
    return c;
}

void dr_canvas_destroy(dr_canvas *c) {
    if (!c) return;
    if (c->cr) cairo_destroy(c->cr);
    if (c->surface) cairo_surface_destroy(c->surface);
    free(c);
}

const uint8_t *dr_canvas_data(const dr_canvas *c) { return cairo_image_surface_get_data(c->surface); }

int32_t dr_canvas_stride(const dr_canvas *c) { return cairo_image_surface_get_stride(c->surface); }

int dr_canvas_coverage(dr_canvas *c, const dr_path_element *path, int32_t count, int32_t fill_rule,
                       const dr_stroke_style *stroke, int32_t ax, int32_t ay, int32_t aw, int32_t ah,
                       char *error, size_t error_size) {
    if (aw <= 0 || ah <= 0) return 0;
    cairo_t *cr = c->cr;
    cairo_surface_flush(c->surface);
    unsigned char *data = cairo_image_surface_get_data(c->surface);
    int stride = cairo_image_surface_get_stride(c->surface);
    for (int32_t row = 0; row < ah; row++) memset(data + (size_t)(ay - c->y0 + row) * stride + (ax - c->x0), 0, (size_t)aw);
    cairo_surface_mark_dirty(c->surface);
    cairo_save(cr);
    cairo_rectangle(cr, ax, ay, aw, ah);
    cairo_clip(cr);
    append_path(cr, path, count);
    cairo_set_source_rgba(cr, 0, 0, 0, 1);
    if (stroke) {
        apply_stroke(cr, stroke);
        cairo_stroke(cr);
    } else {
        cairo_set_fill_rule(cr, fill_rule == DR_FILL_EVEN_ODD ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        cairo_fill(cr);
    }
    cairo_restore(cr);
    cairo_surface_flush(c->surface);
    cairo_status_t status = cairo_status(cr);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo: %s", cairo_status_to_string(status));
        return -1;
    }
    return 0;
}
