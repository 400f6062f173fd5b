#ifndef DARKROOM_DRAW_LIBRARIES_H
#define DARKROOM_DRAW_LIBRARIES_H
/* cairo, Pango (with GLib/GObject), librsvg and poppler-glib, opened with dlopen when a chain first draws.

   They are not linked: a process that never draws (a resize, a thumbnail) maps none of them
   nor the ~100 libraries they pull in (GLib, GIO, HarfBuzz, fontconfig, libxml2, …), which
   cost every darkroom process ~11 MiB of RSS. The headers still give the types and constants;
   the functions are called through `dr_fn`, a table of pointers that libraries.c fills with
   dlsym from each library's list below, once, on first use (dr_draw_load).

   To call another function of one of these libraries: add `X(function_name)` to the list of
   the library that exports it, and call it as `DR(function_name)(arguments…)`. That is all.
   (scripts/draw-calls.py does both for code written with plain calls, after a merge.)
   A plain call `cairo_foo(…)` fails the link ("undefined reference to `cairo_foo'"), as
   nothing links libcairo; `DR(cairo_foo)` without its list entry fails the compile ("no
   member named 'cairo_foo'"). Every listed function is looked up when its library loads, so a
   library too old to have one is refused with a message naming it, before anything draws. */
#include "darkroom_draw.h"
#include <cairo.h>
#include <librsvg/rsvg.h>
#include <pango/pangocairo.h>
#include <poppler.h>

/* libcairo.so.2 (Debian libcairo2). */
#define DR_CAIRO_FUNCTIONS(X)                                                                       \
    X(cairo_clip) X(cairo_close_path) X(cairo_create) X(cairo_curve_to) X(cairo_destroy)            \
    X(cairo_fill) X(cairo_fill_extents) X(cairo_font_options_create) X(cairo_font_options_destroy) \
    X(cairo_font_options_set_antialias) X(cairo_font_options_set_hint_metrics)                     \
    X(cairo_font_options_set_hint_style) X(cairo_image_surface_create)                             \
    X(cairo_image_surface_create_for_data) X(cairo_image_surface_get_data)                         \
    X(cairo_image_surface_get_stride) X(cairo_line_to) X(cairo_matrix_init_scale)                  \
    X(cairo_matrix_translate) X(cairo_move_to) X(cairo_new_path) X(cairo_paint)                    \
    X(cairo_pattern_add_color_stop_rgba) X(cairo_pattern_create_for_surface)                       \
    X(cairo_pattern_create_linear) X(cairo_pattern_create_radial) X(cairo_pattern_destroy)         \
    X(cairo_pattern_set_extend) X(cairo_pattern_set_filter) X(cairo_pattern_set_matrix)            \
    X(cairo_rectangle) X(cairo_restore) X(cairo_save) X(cairo_scale) X(cairo_set_dash) X(cairo_set_fill_rule)     \
    X(cairo_set_line_cap) X(cairo_set_line_join) X(cairo_set_line_width) X(cairo_set_miter_limit)  \
    X(cairo_set_operator) X(cairo_set_source) X(cairo_set_source_rgba)                             \
    X(cairo_set_source_surface) X(cairo_status) X(cairo_status_to_string) X(cairo_stroke)          \
    X(cairo_stroke_extents) X(cairo_surface_destroy) X(cairo_surface_flush)                        \
    X(cairo_surface_mark_dirty) X(cairo_translate) X(cairo_version_string)

/* libglib-2.0.so.0 and libgobject-2.0.so.0 (Debian libglib2.0-0): Pango's and librsvg's objects
   and errors. */
#define DR_GLIB_FUNCTIONS(X) \
    X(g_bytes_new) X(g_bytes_unref) X(g_error_free)
#define DR_GOBJECT_FUNCTIONS(X) \
    X(g_object_unref)

/* libpango-1.0.so.0 (Debian libpango-1.0-0). */
#define DR_PANGO_FUNCTIONS(X)                                                                       \
    X(pango_font_description_free) X(pango_font_description_from_string)                           \
    X(pango_font_description_set_absolute_size) X(pango_layout_context_changed)                    \
    X(pango_layout_get_context) X(pango_layout_get_pixel_extents) X(pango_layout_set_alignment)    \
    X(pango_layout_set_font_description) X(pango_layout_set_text) X(pango_layout_set_width)        \
    X(pango_layout_set_wrap)

/* libpangocairo-1.0.so.0 (Debian libpangocairo-1.0-0). */
#define DR_PANGOCAIRO_FUNCTIONS(X)                                                                  \
    X(pango_cairo_context_set_font_options) X(pango_cairo_create_layout) X(pango_cairo_layout_path) \
    X(pango_cairo_show_layout)

/* librsvg-2.so.2 (Debian librsvg2-2). */
#define DR_RSVG_FUNCTIONS(X)                                                                        \
    X(rsvg_handle_get_intrinsic_dimensions) X(rsvg_handle_get_intrinsic_size_in_pixels)            \
    X(rsvg_handle_new_from_data) X(rsvg_handle_render_document) X(rsvg_handle_set_dpi)

/* libpoppler-glib.so.8 (Debian libpoppler-glib8): PDF pages rendered onto cairo. */
#define DR_POPPLER_FUNCTIONS(X)                                                                     \
    X(poppler_document_get_n_pages) X(poppler_document_get_page) X(poppler_document_new_from_bytes) \
    X(poppler_page_get_size) X(poppler_page_render)

/* One pointer per listed function, typed by the library's own declaration. */
#define DR_MEMBER(name) __typeof__(name) *name;
struct dr_functions {
    DR_CAIRO_FUNCTIONS(DR_MEMBER)
    DR_GLIB_FUNCTIONS(DR_MEMBER)
    DR_GOBJECT_FUNCTIONS(DR_MEMBER)
    DR_PANGO_FUNCTIONS(DR_MEMBER)
    DR_PANGOCAIRO_FUNCTIONS(DR_MEMBER)
    DR_RSVG_FUNCTIONS(DR_MEMBER)
    DR_POPPLER_FUNCTIONS(DR_MEMBER)
};
#undef DR_MEMBER

/* Filled by dr_draw_load; read-only afterwards (pthread_once orders the writes before any
   caller that saw the load succeed). */
extern struct dr_functions dr_fn;

/* A listed function: `DR(cairo_paint)(cr)`. Only after dr_draw_load succeeded for its library. */
#define DR(name) (dr_fn.name)

#endif
