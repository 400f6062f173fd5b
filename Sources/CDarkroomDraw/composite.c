#include "libraries.h"

int dr_cairo_composite(int op, const uint32_t *source, uint32_t *backdrop, int32_t count) {
    if (count <= 0) return 0;
    if (dr_draw_load(DR_NEEDS_CAIRO, NULL, 0)) return -1;
    /* cairo only reads the source surface; the cast drops const for its API. */
    cairo_surface_t *src = DR(cairo_image_surface_create_for_data)((unsigned char *)source, CAIRO_FORMAT_ARGB32, count, 1, count * 4);
    cairo_surface_t *dst = DR(cairo_image_surface_create_for_data)((unsigned char *)backdrop, CAIRO_FORMAT_ARGB32, count, 1, count * 4);
    cairo_t *cr = DR(cairo_create)(dst);
    DR(cairo_set_source_surface)(cr, src, 0, 0);
    DR(cairo_set_operator)(cr, (cairo_operator_t)op);
    DR(cairo_paint)(cr);
    int status = DR(cairo_status)(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    DR(cairo_destroy)(cr);
    DR(cairo_surface_flush)(dst);
    DR(cairo_surface_destroy)(dst);
    DR(cairo_surface_destroy)(src);
    return status;
}
