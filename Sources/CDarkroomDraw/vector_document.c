/*
 * PDF pages (poppler-glib) and SVG documents (librsvg) rendered onto cairo a band at a time,
 * as libvips' pdfload and svgload render tiles: the surface is one band tall, the page is
 * translated up by the band's first row, and cairo drops whatever falls outside. Memory is the
 * band, whatever the page's size.
 */
#include "libraries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dr_vector_document {
    int kind;
    PopplerDocument *pdf;
    GBytes *bytes;            /* the PDF's own copy: poppler reads it as pages are drawn */
    PopplerPage *page;        /* the page last asked for, kept for the next band */
    int page_number;
    RsvgHandle *svg;
    double svg_width, svg_height; /* CSS px */
};

static void take_error(GError *error, const char *fallback, char *msg, size_t msg_size) {
    snprintf(msg, msg_size, "%s", error && error->message ? error->message : fallback);
    if (error) DR(g_error_free)(error);
}

/* The SVG's intrinsic size in px: its width and height, else its viewBox's. */
static int svg_size(RsvgHandle *handle, double *width, double *height) {
    *width = *height = 0;
    if (DR(rsvg_handle_get_intrinsic_size_in_pixels)(handle, width, height) && *width > 0 && *height > 0) return 0;
    gboolean has_width, has_height, has_viewbox;
    RsvgLength w, h;
    RsvgRectangle viewbox;
    DR(rsvg_handle_get_intrinsic_dimensions)(handle, &has_width, &w, &has_height, &h, &has_viewbox, &viewbox);
    if (!has_viewbox || !(viewbox.width > 0) || !(viewbox.height > 0)) return -1;
    *width = viewbox.width;
    *height = viewbox.height;
    return 0;
}

static int open_pdf(dr_vector_document *d, const uint8_t *data, size_t length, char *msg, size_t msg_size) {
    d->bytes = DR(g_bytes_new)(data, length);
    if (d->bytes == NULL) return DR_VECTOR_NO_MEMORY;
    GError *error = NULL;
    d->pdf = DR(poppler_document_new_from_bytes)(d->bytes, NULL, &error);
    if (d->pdf == NULL) {
        int encrypted = error && error->code == POPPLER_ERROR_ENCRYPTED;
        take_error(error, "poppler cannot read the PDF", msg, msg_size);
        return encrypted ? DR_VECTOR_ENCRYPTED : DR_VECTOR_DAMAGED;
    }
    if (DR(poppler_document_get_n_pages)(d->pdf) < 1) {
        snprintf(msg, msg_size, "the PDF holds no page");
        return DR_VECTOR_DAMAGED;
    }
    return 0;
}

static int open_svg(dr_vector_document *d, const uint8_t *data, size_t length, char *msg, size_t msg_size) {
    GError *error = NULL;
    d->svg = DR(rsvg_handle_new_from_data)(data, length, &error);
    if (d->svg == NULL) {
        take_error(error, "librsvg cannot read the SVG document", msg, msg_size);
        return DR_VECTOR_DAMAGED;
    }
    DR(rsvg_handle_set_dpi)(d->svg, 96);
    if (svg_size(d->svg, &d->svg_width, &d->svg_height) != 0) {
        snprintf(msg, msg_size, "the SVG states no size: give its root a width and height, or a viewBox");
        return DR_VECTOR_NO_SIZE;
    }
    return 0;
}

int dr_vector_open(int kind, const uint8_t *data, size_t length, dr_vector_document **document, char *msg,
                   size_t msg_size) {
    *document = NULL;
    if (dr_draw_load(kind == DR_VECTOR_PDF ? DR_NEEDS_POPPLER : DR_NEEDS_RSVG, msg, msg_size)) return DR_VECTOR_NO_LIBRARY;
    dr_vector_document *d = calloc(1, sizeof *d);
    if (d == NULL) return DR_VECTOR_NO_MEMORY;
    d->kind = kind;
    int status = kind == DR_VECTOR_PDF ? open_pdf(d, data, length, msg, msg_size) : open_svg(d, data, length, msg, msg_size);
    if (status != 0) {
        dr_vector_close(d);
        return status;
    }
    *document = d;
    return 0;
}

void dr_vector_close(dr_vector_document *d) {
    if (d == NULL) return;
    if (d->page) DR(g_object_unref)(d->page);
    if (d->pdf) DR(g_object_unref)(d->pdf);
    if (d->bytes) DR(g_bytes_unref)(d->bytes);
    if (d->svg) DR(g_object_unref)(d->svg);
    free(d);
}

int dr_vector_page_count(const dr_vector_document *d) {
    return d->kind == DR_VECTOR_PDF ? DR(poppler_document_get_n_pages)(d->pdf) : 1;
}

static PopplerPage *pdf_page(dr_vector_document *d, int page, char *msg, size_t msg_size) {
    if (d->page != NULL && d->page_number == page) return d->page;
    if (d->page) DR(g_object_unref)(d->page);
    d->page = NULL;
    if (page >= 1 && page <= DR(poppler_document_get_n_pages)(d->pdf)) d->page = DR(poppler_document_get_page)(d->pdf, page - 1);
    if (d->page == NULL) snprintf(msg, msg_size, "the PDF has no page %d", page);
    d->page_number = page;
    return d->page;
}

int dr_vector_page_size(dr_vector_document *d, int page, double *width, double *height, char *msg, size_t msg_size) {
    if (d->kind == DR_VECTOR_SVG) {
        if (page != 1) {
            snprintf(msg, msg_size, "an SVG has one page, not %d", page);
            return -1;
        }
        *width = d->svg_width * 72.0 / 96.0;
        *height = d->svg_height * 72.0 / 96.0;
        return 0;
    }
    PopplerPage *p = pdf_page(d, page, msg, msg_size);
    if (p == NULL) return -1;
    DR(poppler_page_get_size)(p, width, height);
    if (!(*width > 0) || !(*height > 0)) {
        snprintf(msg, msg_size, "page %d of the PDF has no area", page);
        return -1;
    }
    return 0;
}

int dr_vector_render_band(dr_vector_document *d, int page, int width, int height, int y0, int rows, uint32_t *out,
                          size_t stride, char *msg, size_t msg_size) {
    double page_width, page_height;
    if (dr_vector_page_size(d, page, &page_width, &page_height, msg, msg_size) != 0) return -1;
    cairo_surface_t *surface = DR(cairo_image_surface_create_for_data)((unsigned char *)out, CAIRO_FORMAT_ARGB32, width,
                                                                       rows, (int)stride);
    cairo_t *cr = DR(cairo_create)(surface);
    if (d->kind == DR_VECTOR_PDF) {
        DR(cairo_set_source_rgba)(cr, 1, 1, 1, 1);
    } else {
        DR(cairo_set_operator)(cr, CAIRO_OPERATOR_CLEAR);
    }
    DR(cairo_paint)(cr);
    DR(cairo_set_operator)(cr, CAIRO_OPERATOR_OVER);
    DR(cairo_translate)(cr, 0, -(double)y0);
    int status = 0;
    if (d->kind == DR_VECTOR_PDF) {
        DR(cairo_scale)(cr, width / page_width, height / page_height);
        DR(poppler_page_render)(d->page, cr);
    } else {
        RsvgRectangle viewport = {0, 0, width, height};
        GError *error = NULL;
        if (!DR(rsvg_handle_render_document)(d->svg, cr, &viewport, &error)) {
            take_error(error, "librsvg could not render the SVG document", msg, msg_size);
            status = -1;
        }
    }
    if (status == 0 && DR(cairo_status)(cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(msg, msg_size, "cairo: %s", DR(cairo_status_to_string)(DR(cairo_status)(cr)));
        status = -1;
    }
    DR(cairo_destroy)(cr);
    DR(cairo_surface_flush)(surface);
    DR(cairo_surface_destroy)(surface);
    return status;
}
