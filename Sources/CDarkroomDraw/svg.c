#include "libraries.h"
#include <stdio.h>

static void take_error(GError *error, const char *fallback, char *msg, size_t msg_size) {
    snprintf(msg, msg_size, "%s", error && error->message ? error->message : fallback);
    if (error) DR(g_error_free)(error);
}

static RsvgHandle *open_svg(const uint8_t *data, size_t length, char *msg, size_t msg_size) {
    if (dr_draw_load(DR_NEEDS_RSVG, msg, msg_size)) return NULL;
    GError *error = NULL;
    RsvgHandle *handle = DR(rsvg_handle_new_from_data)(data, length, &error);
    if (!handle) {
        take_error(error, "not an SVG document", msg, msg_size);
        return NULL;
    }
    DR(rsvg_handle_set_dpi)(handle, 96);
    return handle;
}

int dr_svg_size(const uint8_t *data, size_t length, double *width, double *height, char *msg, size_t msg_size) {
    RsvgHandle *handle = open_svg(data, length, msg, msg_size);
    if (!handle) return -1;
    *width = *height = 0;
    if (!DR(rsvg_handle_get_intrinsic_size_in_pixels)(handle, width, height)) {
        gboolean has_width, has_height, has_viewbox;
        RsvgLength w, h;
        RsvgRectangle viewbox;
        DR(rsvg_handle_get_intrinsic_dimensions)(handle, &has_width, &w, &has_height, &h, &has_viewbox, &viewbox);
        if (has_viewbox) {
            *width = viewbox.width;
            *height = viewbox.height;
        }
    }
    DR(g_object_unref)(handle);
    return 0;
}

int dr_svg_render(const uint8_t *data, size_t length, int w, int h, uint32_t *out, char *msg, size_t msg_size) {
    RsvgHandle *handle = open_svg(data, length, msg, msg_size);
    if (!handle) return -1;
    cairo_surface_t *surface = DR(cairo_image_surface_create_for_data)((unsigned char *)out, CAIRO_FORMAT_ARGB32, w, h, w * 4);
    cairo_t *cr = DR(cairo_create)(surface);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_CLEAR);
    DR(cairo_paint)(cr);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_OVER);
    RsvgRectangle viewport = {0, 0, w, h};
    GError *error = NULL;
    int status = 0;
    if (!DR(rsvg_handle_render_document)(handle, cr, &viewport, &error)) {
        take_error(error, "the SVG document could not be rendered", msg, msg_size);
        status = -1;
    }
    DR(cairo_destroy)(cr);
    DR(cairo_surface_flush)(surface);
    DR(cairo_surface_destroy)(surface);
    DR(g_object_unref)(handle);
    return status;
}
