#include "libraries.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void append_path(cairo_t *cr, const dr_path_element *path, int32_t count) {
    DR(cairo_new_path)(cr);
    for (int32_t i = 0; i < count; i++) {
        const dr_path_element *e = &path[i];
        switch (e->op) {
        case DR_PATH_MOVE: DR(cairo_move_to)(cr, e->x[0], e->y[0]); break;
        case DR_PATH_LINE: DR(cairo_line_to)(cr, e->x[0], e->y[0]); break;
        case DR_PATH_CURVE: DR(cairo_curve_to)(cr, e->x[0], e->y[0], e->x[1], e->y[1], e->x[2], e->y[2]); break;
        case DR_PATH_CLOSE: DR(cairo_close_path)(cr); break;
        default: break;
        }
    }
}

static void apply_stroke(cairo_t *cr, const dr_stroke_style *s) {
    DR(cairo_set_line_width)(cr, s->width);
    DR(cairo_set_line_join)(cr, s->join == DR_JOIN_ROUND ? CAIRO_LINE_JOIN_ROUND
                            : s->join == DR_JOIN_BEVEL ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
    DR(cairo_set_miter_limit)(cr, s->miter_limit);
    DR(cairo_set_line_cap)(cr, s->cap == DR_CAP_ROUND ? CAIRO_LINE_CAP_ROUND
                           : s->cap == DR_CAP_SQUARE ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
    DR(cairo_set_dash)(cr, s->dash_count > 0 ? s->dash : NULL, s->dash_count > 0 ? s->dash_count : 0, s->dash_offset);
}

void dr_path_extents(const dr_path_element *path, int32_t count, const dr_stroke_style *stroke,
                     double *x0, double *y0, double *x1, double *y1) {
    *x0 = *y0 = *x1 = *y1 = 0;
    if (dr_draw_load(DR_NEEDS_CAIRO, NULL, 0)) return;
    /* A 1×1 surface is enough: extents are computed on the path, not on pixels. */
    cairo_surface_t *surface = DR(cairo_image_surface_create)(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = DR(cairo_create)(surface);
    append_path(cr, path, count);
    if (stroke) {
        apply_stroke(cr, stroke);
        DR(cairo_stroke_extents)(cr, x0, y0, x1, y1);
    } else {
        DR(cairo_fill_extents)(cr, x0, y0, x1, y1);
    }
    DR(cairo_destroy)(cr);
    DR(cairo_surface_destroy)(surface);
}

struct dr_canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    int32_t x0, y0;
};

dr_canvas *dr_canvas_create(int32_t x0, int32_t y0, int32_t width, int32_t height) {
    if (dr_draw_load(DR_NEEDS_CAIRO, NULL, 0)) return NULL;
    dr_canvas *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->surface = DR(cairo_image_surface_create)(CAIRO_FORMAT_A8, width > 0 ? width : 1, height > 0 ? height : 1);
    c->cr = DR(cairo_create)(c->surface);
    if (DR(cairo_status)(c->cr) != CAIRO_STATUS_SUCCESS) { dr_canvas_destroy(c); return NULL; }
    c->x0 = x0;
    c->y0 = y0;
    DR(cairo_translate)(c->cr, -(double)x0, -(double)y0);
    return c;
}

void dr_canvas_destroy(dr_canvas *c) {
    if (!c) return;
    if (c->cr) DR(cairo_destroy)(c->cr);
    if (c->surface) DR(cairo_surface_destroy)(c->surface);
    free(c);
}

const uint8_t *dr_canvas_data(const dr_canvas *c) { return DR(cairo_image_surface_get_data)(c->surface); }

int32_t dr_canvas_stride(const dr_canvas *c) { return DR(cairo_image_surface_get_stride)(c->surface); }

int dr_canvas_coverage(dr_canvas *c, const dr_path_element *path, int32_t count, int32_t fill_rule,
                       const dr_stroke_style *stroke, int32_t ax, int32_t ay, int32_t aw, int32_t ah,
                       char *error, size_t error_size) {
    if (aw <= 0 || ah <= 0) return 0;
    cairo_t *cr = c->cr;
    DR(cairo_surface_flush)(c->surface);
    unsigned char *data = DR(cairo_image_surface_get_data)(c->surface);
    int stride = DR(cairo_image_surface_get_stride)(c->surface);
    for (int32_t row = 0; row < ah; row++) memset(data + (size_t)(ay - c->y0 + row) * stride + (ax - c->x0), 0, (size_t)aw);
    DR(cairo_surface_mark_dirty)(c->surface);
    DR(cairo_save)(cr);
    DR(cairo_rectangle)(cr, ax, ay, aw, ah);
    DR(cairo_clip)(cr);
    append_path(cr, path, count);
    DR(cairo_set_source_rgba)(cr, 0, 0, 0, 1);
    if (stroke) {
        apply_stroke(cr, stroke);
        DR(cairo_stroke)(cr);
    } else {
        DR(cairo_set_fill_rule)(cr, fill_rule == DR_FILL_EVEN_ODD ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        DR(cairo_fill)(cr);
    }
    DR(cairo_restore)(cr);
    DR(cairo_surface_flush)(c->surface);
    cairo_status_t status = DR(cairo_status)(cr);
    if (status != CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "cairo: %s", DR(cairo_status_to_string)(status));
        return -1;
    }
    return 0;
}
