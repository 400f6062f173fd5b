#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void dr_set_message(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, capacity, format, args);
    va_end(args);
}

int dr_buffer_append(dr_buffer *buffer, const unsigned char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (grown == NULL) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

void dr_buffer_free(dr_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}

void dr_info_store_exif(dr_info *info, const unsigned char *tiff, size_t length) {
    if (info->exif == NULL || info->exif_capacity == 0 || info->exif_length != 0) return;
    size_t n = length < info->exif_capacity ? length : info->exif_capacity;
    memcpy(info->exif, tiff, n);
    info->exif_length = n;
}

int dr_info_store_icc(dr_info *info, const unsigned char *profile, size_t length) {
    if (info->icc != NULL || length == 0) return 1;
    info->icc = malloc(length);
    if (info->icc == NULL) return 0;
    memcpy(info->icc, profile, length);
    info->icc_length = length;
    return 1;
}

void dr_info_free(dr_info *info) {
    free(info->icc);
    info->icc = NULL;
    info->icc_length = 0;
}

/* CMYK without a usable profile goes through the assumed press profile (as libvips and
 * Photoshop assume one), not the naive 255 - ink formula. */
static dr_color_converter *assumed_cmyk(dr_reader *r, const dr_read_options *options, int channels, int inverted) {
    size_t length;
    const unsigned char *profile = dr_default_cmyk_profile(&length);
    char problem[160] = "";
    return dr_color_converter_make(profile, length, options->intent, DR_SPACE_CMYK, channels, r->bytes_per_sample,
                                   inverted, problem);
}

dr_color_converter *dr_reader_color_setup(dr_reader *r, const dr_info *info, const dr_read_options *options,
                                          int image_space, int channels, int inverted_cmyk) {
    if (options == NULL || !options->convert_to_srgb) return NULL;
    if (info->icc == NULL)
        return image_space == DR_SPACE_CMYK ? assumed_cmyk(r, options, channels, inverted_cmyk) : NULL;
    dr_icc_summary summary;
    dr_icc_inspect(info->icc, info->icc_length, options->intent, &summary);
    if (summary.usable && summary.is_srgb) return NULL;
    char problem[160] = "";
    dr_color_converter *c = NULL;
    if (!summary.usable)
        snprintf(problem, sizeof problem, "%s", summary.problem);
    else
        c = dr_color_converter_make(info->icc, info->icc_length, options->intent, image_space, channels,
                                    r->bytes_per_sample, inverted_cmyk, problem);
    if (c == NULL && r->warning[0] == 0)
        snprintf(r->warning, sizeof r->warning, "ICC profile ignored (%s); %s", problem,
                 image_space == DR_SPACE_CMYK ? "CMYK converted through the assumed FOGRA39 profile"
                                              : "colours taken as sRGB");
    if (c == NULL && image_space == DR_SPACE_CMYK) c = assumed_cmyk(r, options, channels, inverted_cmyk);
    return c;
}

int dr_fits(const dr_info *info, uint64_t max_pixels) {
    return (uint64_t)info->width * (uint64_t)info->height <= max_pixels;
}

void dr_clamp_crop(const dr_read_options *o, int width, int height, int *x, int *y, int *w, int *h) {
    if (o == NULL || o->crop_width <= 0 || o->crop_height <= 0) {
        *x = 0; *y = 0; *w = width; *h = height;
        return;
    }
    int x0 = o->crop_x < 0 ? 0 : (o->crop_x >= width ? width - 1 : o->crop_x);
    int y0 = o->crop_y < 0 ? 0 : (o->crop_y >= height ? height - 1 : o->crop_y);
    int cw = o->crop_width > width - x0 ? width - x0 : o->crop_width;
    int ch = o->crop_height > height - y0 ? height - y0 : o->crop_height;
    *x = x0; *y = y0; *w = cw < 1 ? 1 : cw; *h = ch < 1 ? 1 : ch;
}

uint64_t dr_monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Which decoder to use, by magic bytes; 0 when neither. */
static int sniff(const unsigned char *bytes, size_t length) {
    if (length >= 8 && memcmp(bytes, png_signature, 8) == 0) return DR_FORMAT_PNG;
    if (length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return DR_FORMAT_JPEG;
    return 0;
}

static void reset_info(dr_info *info) {
    unsigned char *exif = info->exif;
    size_t capacity = info->exif_capacity;
    struct dr_metadata *metadata = info->metadata;
    dr_info_free(info);
    memset(info, 0, sizeof *info);
    info->exif = exif;
    info->exif_capacity = capacity;
    info->metadata = metadata;
}

static dr_status not_an_image(char *message, size_t capacity) {
    dr_set_message(message, capacity, "not a PNG or JPEG file (unrecognised signature)");
    return DR_NOT_AN_IMAGE;
}

dr_status dr_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                       char *message, size_t capacity) {
    reset_info(info);
    switch (sniff(bytes, length)) {
    case DR_FORMAT_PNG: return dr_png_read_info(bytes, length, info, message, capacity);
    case DR_FORMAT_JPEG: return dr_jpeg_read_info(bytes, length, info, message, capacity);
    default: return not_an_image(message, capacity);
    }
}

dr_status dr_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                         dr_info *info, dr_reader **reader, char *message, size_t capacity) {
    reset_info(info);
    *reader = NULL;
    switch (sniff(bytes, length)) {
    case DR_FORMAT_PNG: return dr_png_reader_open(bytes, length, options, info, reader, message, capacity);
    case DR_FORMAT_JPEG: return dr_jpeg_reader_open(bytes, length, options, info, reader, message, capacity);
    default: return not_an_image(message, capacity);
    }
}

void dr_reader_layout(const dr_reader *r, int *width, int *height, int *channels, int *bytes_per_sample) {
    *width = r->width;
    *height = r->height;
    *channels = r->channels;
    *bytes_per_sample = r->bytes_per_sample;
}

dr_status dr_reader_read_rows(dr_reader *r, const unsigned char *bytes, size_t length,
                              unsigned char *rows, size_t stride, int count,
                              char *message, size_t capacity) {
    (void)length; /* the same bytes as at open; only their address may differ */
    r->bytes = bytes;
    return r->format == DR_FORMAT_PNG ? dr_png_read_rows(r, rows, stride, count, message, capacity)
                                      : dr_jpeg_read_rows(r, rows, stride, count, message, capacity);
}

const char *dr_reader_warning(const dr_reader *r) { return r->warning; }

int dr_reader_converts_color(const dr_reader *r) { return r->color != NULL; }

void dr_reader_close(dr_reader *r) {
    if (r == NULL) return;
    if (r->format == DR_FORMAT_PNG) dr_png_reader_close(r); else dr_jpeg_reader_close(r);
}

dr_status dr_writer_set_icc(dr_writer *w, const unsigned char *profile, size_t length,
                            char *message, size_t capacity) {
    return w->format == DR_FORMAT_PNG ? dr_png_writer_set_icc(w, profile, length, message, capacity)
                                      : dr_jpeg_writer_set_icc(w, profile, length, message, capacity);
}

dr_status dr_writer_write_rows(dr_writer *w, const unsigned char *rows, size_t stride, int count,
                               char *message, size_t capacity) {
    return w->format == DR_FORMAT_PNG ? dr_png_write_rows(w, rows, stride, count, message, capacity)
                                      : dr_jpeg_write_rows(w, rows, stride, count, message, capacity);
}

dr_status dr_writer_finish(dr_writer *w, dr_buffer *out, char *message, size_t capacity) {
    return w->format == DR_FORMAT_PNG ? dr_png_writer_finish(w, out, message, capacity)
                                      : dr_jpeg_writer_finish(w, out, message, capacity);
}

void dr_writer_close(dr_writer *w) {
    if (w == NULL) return;
    if (w->format == DR_FORMAT_PNG) dr_png_writer_close(w); else dr_jpeg_writer_close(w);
}
