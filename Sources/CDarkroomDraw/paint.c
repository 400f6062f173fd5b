#include "libraries.h"

/* A cairo context over `out`, cleared, with the image's (x, y) at its origin. */
static cairo_t *strip_context(int x, int y, int w, int h, uint32_t *out, cairo_surface_t **surface) {
    *surface = DR(cairo_image_surface_create_for_data)((unsigned char *)out, CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = DR(cairo_create)(*surface);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_CLEAR);
    DR(cairo_paint)(cr);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_OVER);
    DR(cairo_translate)(cr, -x, -y);
    return cr;
}

static cairo_extend_t extend_of(int extend) {
    switch (extend) {
    case DR_EXTEND_PAD: return CAIRO_EXTEND_PAD;
    case DR_EXTEND_REPEAT: return CAIRO_EXTEND_REPEAT;
    case DR_EXTEND_REFLECT: return CAIRO_EXTEND_REFLECT;
    default: return CAIRO_EXTEND_NONE;
    }
}

int dr_paint_rect(const dr_paint *p, int x, int y, int w, int h, uint32_t *out) {
    if (w <= 0 || h <= 0) return 0;
    if (dr_draw_load(DR_NEEDS_CAIRO, NULL, 0)) return -1;
    cairo_surface_t *target;
    cairo_t *cr = strip_context(x, y, w, h, out, &target);
    if (p->clip_w > 0 && p->clip_h > 0) {
        DR(cairo_rectangle)(cr, p->clip_x, p->clip_y, p->clip_w, p->clip_h);
        DR(cairo_clip)(cr);
    }
    cairo_pattern_t *pattern = NULL;
    cairo_surface_t *source = NULL;
    if (p->kind == DR_PAINT_IMAGE) {
        if (p->width <= 0 || p->height <= 0 || p->dest_w <= 0 || p->dest_h <= 0) goto done;
        /* cairo only reads a source surface; the cast drops const for its API. */
        source = DR(cairo_image_surface_create_for_data)((unsigned char *)p->pixels, CAIRO_FORMAT_ARGB32,
                                                     p->width, p->height, p->width * 4);
        pattern = DR(cairo_pattern_create_for_surface)(source);
        cairo_matrix_t m;
        /* pattern space = (user − dest origin) × natural / drawn size */
        DR(cairo_matrix_init_scale)(&m, p->width / p->dest_w, p->height / p->dest_h);
        DR(cairo_matrix_translate)(&m, -p->dest_x, -p->dest_y);
        DR(cairo_pattern_set_matrix)(pattern, &m);
        DR(cairo_pattern_set_filter)(pattern, CAIRO_FILTER_GOOD);
    } else {
        pattern = p->kind == DR_PAINT_LINEAR ? DR(cairo_pattern_create_linear)(p->x0, p->y0, p->x1, p->y1)
                                             : DR(cairo_pattern_create_radial)(p->x0, p->y0, p->r0, p->x1, p->y1, p->r1);
        for (int i = 0; i < p->stop_count; i++) {
            const dr_stop *s = &p->stops[i];
            DR(cairo_pattern_add_color_stop_rgba)(pattern, s->at, s->r, s->g, s->b, s->a);
        }
    }
    DR(cairo_pattern_set_extend)(pattern, extend_of(p->extend));
    DR(cairo_set_source)(cr, pattern);
    DR(cairo_paint)(cr);
done:;
    int status = DR(cairo_status)(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    DR(cairo_destroy)(cr);
    if (pattern) DR(cairo_pattern_destroy)(pattern);
    if (source) DR(cairo_surface_destroy)(source);
    DR(cairo_surface_flush)(target);
    DR(cairo_surface_destroy)(target);
    return status;
}
