/*
 * PDF and SVG as inputs: one page rendered by poppler or librsvg onto cairo (CDarkroomDraw's
 * vector_document.c), a band of rows at a time, so memory is one band whatever the page's
 * size. A PDF page is opaque (painted on white, as paper, as pdftoppm and vips pdfload do); an
 * SVG keeps its transparent background as alpha. The pixel limit is checked on the page's size
 * at its DPI before anything is rendered. The document is parsed once for an input: the header
 * keeps it (dr_document_open) and lends it to each reader in turn (dr_read_options.document).
 */
#include "internal.h"

#include "darkroom_draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows rendered at once: up to DR_VECTOR_BAND_BYTES of ARGB, at least 16 rows. Each band draws
 * the whole page again (cairo drops what falls outside it; an SVG filter is computed again), so
 * bands are large: a page of up to 4 megapixels is drawn once. */
static int band_rows(int width, int height) {
    long rows = DR_VECTOR_BAND_BYTES / ((long)width * 4);
    if (rows < 16) rows = 16;
    return rows > height ? height : (int)rows;
}

/* A PDF or SVG parsed once, with every page's size, for the header and every reader of it. */
struct dr_document {
    int format;
    size_t length; /* of the bytes it was parsed from */
    dr_vector_document *vector;
    int pages;
    double *page_sizes; /* `pages` pairs, in points */
};

typedef struct {
    dr_reader base; /* first: the generic reader */
    dr_document *document; /* lent by the caller (dr_read_options.document), or `own` */
    dr_document *own;      /* parsed by this reader, closed with it */
    int page, render_width, render_height, crop_x, crop_y, next_row;
    uint32_t *band;
    int band_capacity, band_first, band_count;
    uint64_t deadline_ns;
} vector_reader;

static dr_status open_error(int reason, int format, char *message, size_t capacity) {
    switch (reason) {
    case DR_VECTOR_NO_LIBRARY: return DR_UNSUPPORTED;
    case DR_VECTOR_ENCRYPTED:
        dr_set_message(message, capacity, "the PDF is encrypted and needs a password");
        return DR_UNSUPPORTED;
    case DR_VECTOR_NO_SIZE: return DR_UNSUPPORTED;
    case DR_VECTOR_NO_MEMORY: return DR_OUT_OF_MEMORY;
    default: {
        char reason_text[200];
        snprintf(reason_text, sizeof reason_text, "%s", message);
        for (size_t n = strlen(reason_text); n > 0 && (reason_text[n - 1] == '\n' || reason_text[n - 1] == ' '); n--)
            reason_text[n - 1] = 0;
        dr_set_message(message, capacity, "%s: %s", format == DR_FORMAT_PDF ? "PDF" : "SVG", reason_text);
        /* libxml2 and poppler say so when the data stops early. */
        return strstr(reason_text, "Premature end") || strstr(reason_text, "EOF") || strstr(reason_text, "truncated")
                   ? DR_TRUNCATED : DR_CORRUPT;
    }
    }
}

/* A PDF ends with "%%EOF" (within its last 1024 bytes, as Acrobat asks); without it the file
 * was cut short, and poppler's repair would draw whatever part of a page arrived. */
static int pdf_complete(const unsigned char *bytes, size_t length) {
    if (length < 5) return 0;
    size_t from = length > 1024 ? length - 1024 : 0;
    for (size_t i = length - 4; i-- > from;)
        if (memcmp(bytes + i, "%%EOF", 5) == 0) return 1;
    return 0;
}

void dr_document_close(dr_document *document) {
    if (document == NULL) return;
    dr_vector_close(document->vector);
    free(document->page_sizes);
    free(document);
}

/* Parses the bytes and reads every page's size; stops with DR_CANCELLED after `deadline_ns` (0: never). */
static dr_status document_open(const unsigned char *bytes, size_t length, uint64_t deadline_ns, dr_document **out,
                               char *message, size_t capacity) {
    *out = NULL;
    int format = dr_sniff(bytes, length);
    if (format != DR_FORMAT_PDF && format != DR_FORMAT_SVG) {
        dr_set_message(message, capacity, "neither a PDF nor an SVG");
        return DR_NOT_AN_IMAGE;
    }
    if (format == DR_FORMAT_PDF && !pdf_complete(bytes, length)) {
        dr_set_message(message, capacity, "PDF data ends early: no %%%%EOF at its end (truncated file?)");
        return DR_TRUNCATED;
    }
    dr_document *d = calloc(1, sizeof *d);
    if (d == NULL) return DR_OUT_OF_MEMORY;
    d->format = format;
    d->length = length;
    int reason = dr_vector_open(format == DR_FORMAT_PDF ? DR_VECTOR_PDF : DR_VECTOR_SVG, bytes, length, &d->vector, message, capacity);
    dr_status status = reason != 0 ? open_error(reason, format, message, capacity) : DR_OK;
    if (status == DR_OK) {
        d->pages = dr_vector_page_count(d->vector);
        d->page_sizes = malloc(sizeof(double) * 2 * (size_t)d->pages);
        if (d->page_sizes == NULL) status = DR_OUT_OF_MEMORY;
    }
    for (int i = 0; status == DR_OK && i < d->pages; i++) {
        if (deadline_ns && (i & 63) == 0 && dr_monotonic_ns() > deadline_ns) {
            dr_set_message(message, capacity, "reading the PDF's pages ran past the time limit");
            status = DR_CANCELLED;
        } else if (dr_vector_page_size(d->vector, i + 1, &d->page_sizes[2 * i], &d->page_sizes[2 * i + 1], message, capacity) != 0) {
            status = format == DR_FORMAT_PDF ? DR_CORRUPT : DR_UNSUPPORTED;
        }
    }
    if (status != DR_OK) {
        dr_document_close(d);
        return status;
    }
    *out = d;
    return DR_OK;
}

/* Fills `info` from the document: every page's size, and page `page` at `dpi`. */
static dr_status describe(const dr_document *d, int page, double dpi, dr_info *info, char *message, size_t capacity) {
    info->format = d->format;
    info->pages = d->pages;
    info->page_sizes = malloc(sizeof(double) * 2 * (size_t)d->pages);
    if (info->page_sizes == NULL) return DR_OUT_OF_MEMORY;
    memcpy(info->page_sizes, d->page_sizes, sizeof(double) * 2 * (size_t)d->pages);
    if (page < 1 || page > d->pages) {
        dr_set_message(message, capacity, "page %d asked for; the %s has %d", page, d->format == DR_FORMAT_PDF ? "PDF" : "SVG",
                       d->pages);
        return DR_UNSUPPORTED;
    }
    double w = rint(d->page_sizes[2 * (page - 1)] * dpi / 72.0), h = rint(d->page_sizes[2 * (page - 1) + 1] * dpi / 72.0);
    /* Clamped before the int conversion; the pixel limit refuses anything near it. */
    info->width = w < 1 ? 1 : w > 1e9 ? 1000000000 : (int)w;
    info->height = h < 1 ? 1 : h > 1e9 ? 1000000000 : (int)h;
    info->has_alpha = d->format == DR_FORMAT_SVG;
    info->channels = info->has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->color_space = DR_SPACE_RGB;
    return DR_OK;
}

dr_status dr_document_open(const unsigned char *bytes, size_t length, dr_info *info, dr_document **document,
                           char *message, size_t capacity) {
    dr_info_reset(info);
    dr_status status = document_open(bytes, length, 0, document, message, capacity);
    if (status == DR_OK) status = describe(*document, 1, DR_DEFAULT_DPI, info, message, capacity);
    if (status != DR_OK) {
        dr_document_close(*document);
        *document = NULL;
    }
    return status;
}

dr_status dr_document_info(const dr_document *document, dr_info *info, char *message, size_t capacity) {
    dr_info_reset(info);
    return describe(document, 1, DR_DEFAULT_DPI, info, message, capacity);
}

dr_status dr_vector_read_info(const unsigned char *bytes, size_t length, dr_info *info, char *message, size_t capacity) {
    dr_document *document = NULL;
    dr_status status = dr_document_open(bytes, length, info, &document, message, capacity);
    dr_document_close(document);
    return status;
}

static void vector_reader_close(dr_reader *base) {
    vector_reader *r = (vector_reader *)base;
    dr_document_close(r->own);
    free(r->band);
    free(r);
}

/* Row `y` of the page as straight RGB (a PDF) or RGBA (an SVG) from the band's ARGB words. */
static void convert_row(const vector_reader *r, const uint32_t *from, unsigned char *to) {
    if (r->base.channels == 3) {
        for (int x = 0; x < r->base.width; x++, to += 3) {
            uint32_t p = from[x];
            to[0] = (unsigned char)(p >> 16);
            to[1] = (unsigned char)(p >> 8);
            to[2] = (unsigned char)p;
        }
        return;
    }
    for (int x = 0; x < r->base.width; x++, to += 4) {
        uint32_t p = from[x];
        to[0] = (unsigned char)(p >> 16);
        to[1] = (unsigned char)(p >> 8);
        to[2] = (unsigned char)p;
        to[3] = (unsigned char)(p >> 24);
    }
    dr_unpremultiply(to - 4 * (size_t)r->base.width, (size_t)r->base.width, 1);
}

static dr_status vector_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count, char *message,
                                  size_t capacity) {
    vector_reader *r = (vector_reader *)base;
    if (r->next_row + count > r->base.height) {
        dr_set_message(message, capacity, "more rows asked for than the page has");
        return DR_CORRUPT;
    }
    for (int i = 0; i < count; i++) {
        int y = r->crop_y + r->next_row + i;
        if (y < r->band_first || y >= r->band_first + r->band_count) {
            if (r->deadline_ns && dr_monotonic_ns() > r->deadline_ns) {
                dr_set_message(message, capacity, "rendering the page ran past the time limit");
                return DR_CANCELLED;
            }
            int n = r->render_height - y < r->band_capacity ? r->render_height - y : r->band_capacity;
            if (dr_vector_render_band(r->document->vector, r->page, r->render_width, r->render_height, y, n, r->band,
                                      (size_t)r->render_width * 4, message, capacity) != 0)
                return DR_CORRUPT;
            r->band_first = y;
            r->band_count = n;
        }
        const uint32_t *from = r->band + (size_t)(y - r->band_first) * (size_t)r->render_width + (size_t)r->crop_x;
        convert_row(r, from, rows + stride * (size_t)i);
    }
    r->next_row += count;
    return DR_OK;
}

dr_status dr_vector_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options, dr_info *info,
                                dr_reader **out, char *message, size_t capacity) {
    int page = options->page > 0 ? options->page : 1;
    double dpi = options->dpi > 0 ? options->dpi : DR_DEFAULT_DPI;
    vector_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return DR_OUT_OF_MEMORY;
    r->base.format = dr_sniff(bytes, length);
    r->base.read_rows = vector_read_rows;
    r->base.close = vector_reader_close;
    r->base.bytes = bytes;
    r->deadline_ns = options->deadline_ns;
    r->page = page;
    /* A lent document of other bytes (a caller's mistake) is not used: these are parsed. */
    r->document = options->document != NULL && options->document->length == length ? options->document : NULL;
    dr_status status = DR_OK;
    if (r->document == NULL) {
        status = document_open(bytes, length, options->deadline_ns, &r->own, message, capacity);
        r->document = r->own;
    }
    if (status == DR_OK) status = describe(r->document, page, dpi, info, message, capacity);
    if (status == DR_OK && !dr_fits(info, options->max_pixels)) status = dr_too_large(info, options->max_pixels, message, capacity);
    if (status == DR_OK) {
        r->render_width = options->render_width > 0 ? options->render_width : info->width;
        r->render_height = options->render_height > 0 ? options->render_height : info->height;
        if ((uint64_t)r->render_width * (uint64_t)r->render_height > options->max_pixels) {
            dr_set_message(message, capacity, "the page would be rendered %d×%d pixels, over the limit of %llu pixels",
                           r->render_width, r->render_height, (unsigned long long)options->max_pixels);
            status = DR_TOO_LARGE;
        } else if (r->render_width > 32767) {
            dr_set_message(message, capacity, "the page would be rendered %d pixels wide; cairo draws at most 32767",
                           r->render_width);
            status = DR_TOO_LARGE;
        }
    }
    if (status == DR_OK) {
        r->band_capacity = band_rows(r->render_width, r->render_height);
        r->band = malloc((size_t)r->render_width * 4 * (size_t)r->band_capacity);
        if (r->band == NULL) status = DR_OUT_OF_MEMORY;
    }
    if (status != DR_OK) {
        vector_reader_close(&r->base);
        return status;
    }
    r->band_first = -1;
    dr_clamp_crop(options, r->render_width, r->render_height, &r->crop_x, &r->crop_y, &r->base.width, &r->base.height);
    r->base.channels = info->channels;
    r->base.bytes_per_sample = 1;
    *out = &r->base;
    return DR_OK;
}
