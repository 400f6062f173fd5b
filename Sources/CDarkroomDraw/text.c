#include "libraries.h"
#include <math.h>
#include <stdio.h>

/* A layout of `t` on `cr`: hinting off, so the same text measures and draws alike everywhere. */
static PangoLayout *make_layout(cairo_t *cr, const dr_text *t) {
    cairo_font_options_t *options = DR(cairo_font_options_create)();
    DR(cairo_font_options_set_hint_style)(options, CAIRO_HINT_STYLE_NONE);
    DR(cairo_font_options_set_hint_metrics)(options, CAIRO_HINT_METRICS_OFF);
    DR(cairo_font_options_set_antialias)(options, CAIRO_ANTIALIAS_GRAY);
    PangoLayout *layout = DR(pango_cairo_create_layout)(cr);
    DR(pango_cairo_context_set_font_options)(DR(pango_layout_get_context)(layout), options);
    DR(cairo_font_options_destroy)(options);
    DR(pango_layout_context_changed)(layout);

    PangoFontDescription *font = DR(pango_font_description_from_string)(t->font ? t->font : "DejaVu Sans");
    DR(pango_font_description_set_absolute_size)(font, t->size * PANGO_SCALE);
    DR(pango_layout_set_font_description)(layout, font);
    DR(pango_font_description_free)(font);
    if (t->max_width > 0) {
        DR(pango_layout_set_width)(layout, (int)(t->max_width * PANGO_SCALE));
        DR(pango_layout_set_wrap)(layout, PANGO_WRAP_WORD_CHAR);
    }
    DR(pango_layout_set_alignment)(layout, t->align == DR_ALIGN_CENTER ? PANGO_ALIGN_CENTER
                                       : t->align == DR_ALIGN_RIGHT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    DR(pango_layout_set_text)(layout, t->text, -1);
    return layout;
}

/* The text's extent in px: the logical box joined with the ink (some glyphs reach past it). */
static PangoRectangle extent(PangoLayout *layout) {
    PangoRectangle ink, logical;
    DR(pango_layout_get_pixel_extents)(layout, &ink, &logical);
    int x0 = logical.x < ink.x ? logical.x : ink.x, y0 = logical.y < ink.y ? logical.y : ink.y;
    int x1 = logical.x + logical.width > ink.x + ink.width ? logical.x + logical.width : ink.x + ink.width;
    int y1 = logical.y + logical.height > ink.y + ink.height ? logical.y + logical.height : ink.y + ink.height;
    PangoRectangle r = {x0, y0, x1 - x0, y1 - y0};
    return r;
}

static double margin_of(const dr_text *t) {
    return t->padding + (t->stroke_width > 0 && t->stroke[3] > 0 ? t->stroke_width : 0);
}

int dr_text_measure(const dr_text *t, int *w, int *h, char *msg, size_t msg_size) {
    if (dr_draw_load(DR_NEEDS_PANGO, msg, msg_size)) return -1;
    cairo_surface_t *surface = DR(cairo_image_surface_create)(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = DR(cairo_create)(surface);
    PangoLayout *layout = make_layout(cr, t);
    PangoRectangle r = extent(layout);
    double m = margin_of(t);
    *w = r.width + 2 * (int)ceil(m);
    *h = r.height + 2 * (int)ceil(m);
    DR(g_object_unref)(layout);
    DR(cairo_destroy)(cr);
    DR(cairo_surface_destroy)(surface);
    /* An empty text (a placeholder the file has no value for) has nothing to draw: not an error. */
    if (*w <= 0 || *h <= 0) *w = *h = 0;
    return 0;
}

int dr_text_render(const dr_text *t, int w, int h, uint32_t *out, char *msg, size_t msg_size) {
    if (dr_draw_load(DR_NEEDS_PANGO, msg, msg_size)) return -1;
    cairo_surface_t *surface = DR(cairo_image_surface_create_for_data)((unsigned char *)out, CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = DR(cairo_create)(surface);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_CLEAR);
    DR(cairo_paint)(cr);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_OVER);
    if (t->background[3] > 0) {
        DR(cairo_set_source_rgba)(cr, t->background[0], t->background[1], t->background[2], t->background[3]);
        DR(cairo_paint)(cr);
    }
    PangoLayout *layout = make_layout(cr, t);
    PangoRectangle r = extent(layout);
    double m = ceil(margin_of(t));
    DR(cairo_move_to)(cr, m - r.x, m - r.y);
    if (t->stroke_width > 0 && t->stroke[3] > 0) {
        /* The outline is stroked twice as wide and the fill drawn over it: stroke_width shows
           outside the glyphs and nothing eats into them. */
        DR(pango_cairo_layout_path)(cr, layout);
        DR(cairo_set_source_rgba)(cr, t->stroke[0], t->stroke[1], t->stroke[2], t->stroke[3]);
        DR(cairo_set_line_width)(cr, 2 * t->stroke_width);
        DR(cairo_set_line_join)(cr, CAIRO_LINE_JOIN_ROUND);
        DR(cairo_stroke)(cr);
        DR(cairo_move_to)(cr, m - r.x, m - r.y);
    }
    DR(cairo_set_source_rgba)(cr, t->color[0], t->color[1], t->color[2], t->color[3]);
    DR(pango_cairo_show_layout)(cr, layout);
    int status = DR(cairo_status)(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    if (status) snprintf(msg, msg_size, "cairo: %s", DR(cairo_status_to_string)(DR(cairo_status)(cr)));
    DR(g_object_unref)(layout);
    DR(cairo_destroy)(cr);
    DR(cairo_surface_flush)(surface);
    DR(cairo_surface_destroy)(surface);
    return status;
}
