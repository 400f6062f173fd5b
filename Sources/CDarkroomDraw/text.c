#include "darkroom_draw.h"
#include <pango/pangocairo.h>
#include <math.h>
#include <stdio.h>

/* A layout of `t` on `cr`: hinting off, so the same text measures and draws alike everywhere. */
static PangoLayout *make_layout(cairo_t *cr, const dr_text *t) {
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    PangoLayout *layout = pango_cairo_create_layout(cr);
    pango_cairo_context_set_font_options(pango_layout_get_context(layout), options);
    cairo_font_options_destroy(options);
    pango_layout_context_changed(layout);

    PangoFontDescription *font = pango_font_description_from_string(t->font ? t->font : "DejaVu Sans");
    pango_font_description_set_absolute_size(font, t->size * PANGO_SCALE);
    pango_layout_set_font_description(layout, font);
    pango_font_description_free(font);
    if (t->max_width > 0) {
        pango_layout_set_width(layout, (int)(t->max_width * PANGO_SCALE));
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    }
    pango_layout_set_alignment(layout, t->align == DR_ALIGN_CENTER ? PANGO_ALIGN_CENTER
                                       : t->align == DR_ALIGN_RIGHT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    pango_layout_set_text(layout, t->text, -1);
    return layout;
}

/* The text's extent in px: the logical box joined with the ink (some glyphs reach past it). */
static PangoRectangle extent(PangoLayout *layout) {
    PangoRectangle ink, logical;
    pango_layout_get_pixel_extents(layout, &ink, &logical);
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
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(surface);
    PangoLayout *layout = make_layout(cr, t);
    PangoRectangle r = extent(layout);
    double m = margin_of(t);
    *w = r.width + 2 * (int)ceil(m);
    *h = r.height + 2 * (int)ceil(m);
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    if (*w <= 0 || *h <= 0) {
        snprintf(msg, msg_size, "the text has no extent");
        return -1;
    }
    return 0;
}

int dr_text_render(const dr_text *t, int w, int h, uint32_t *out, char *msg, size_t msg_size) {
    cairo_surface_t *surface = cairo_image_surface_create_for_data((unsigned char *)out, CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = cairo_create(surface);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    if (t->background[3] > 0) {
        cairo_set_source_rgba(cr, t->background[0], t->background[1], t->background[2], t->background[3]);
        cairo_paint(cr);
    }
    PangoLayout *layout = make_layout(cr, t);
    PangoRectangle r = extent(layout);
    double m = ceil(margin_of(t));
    cairo_move_to(cr, m - r.x, m - r.y);
    if (t->stroke_width > 0 && t->stroke[3] > 0) {
        /* The outline is stroked twice as wide and the fill drawn over it: stroke_width shows
           outside the glyphs and nothing eats into them. */
        pango_cairo_layout_path(cr, layout);
        cairo_set_source_rgba(cr, t->stroke[0], t->stroke[1], t->stroke[2], t->stroke[3]);
        cairo_set_line_width(cr, 2 * t->stroke_width);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
        cairo_move_to(cr, m - r.x, m - r.y);
    }
    cairo_set_source_rgba(cr, t->color[0], t->color[1], t->color[2], t->color[3]);
    pango_cairo_show_layout(cr, layout);
    int status = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    if (status) snprintf(msg, msg_size, "cairo: %s", cairo_status_to_string(cairo_status(cr)));
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    return status;
}
