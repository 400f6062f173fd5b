#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void dr_set_message(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, capacity, format, args);
    va_end(args);
}

dr_status dr_fail(dr_status *slot, char *message, size_t capacity, dr_status status, const char *format, ...) {
    if (slot != NULL) *slot = status;
    if (message != NULL && capacity > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(message, capacity, format, args);
        va_end(args);
    }
    return status;
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
    free(info->page_sizes);
    info->page_sizes = NULL;
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

int dr_read_at(const unsigned char *bytes, int fd, uint64_t length, uint64_t at, void *into, size_t n) {
    if (at > length || n > length - at) return 0;
    if (bytes != NULL) {
        memcpy(into, bytes + at, n);
        return 1;
    }
    for (size_t done = 0; done < n;) {
        ssize_t got = pread(fd, (unsigned char *)into + done, n - done, (off_t)(at + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        done += (size_t)got;
    }
    return 1;
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

void dr_reader_window(dr_reader *r, const dr_read_options *options, const dr_info *info, int *x, int *y) {
    dr_clamp_crop(options, info->width, info->height, x, y, &r->width, &r->height);
}

uint64_t dr_monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The ISO BMFF 'ftyp' box's brands: AVIF when any says so, HEIF for the HEIF/HEVC ones. */
static int sniff_heif(const unsigned char *bytes, size_t length) {
    if (length < 16 || memcmp(bytes + 4, "ftyp", 4) != 0) return 0;
    size_t box = (size_t)bytes[0] << 24 | (size_t)bytes[1] << 16 | (size_t)bytes[2] << 8 | bytes[3];
    if (box < 16 || box > length) box = length < 64 ? length : 64;
    int heif = 0;
    for (size_t at = 8; at + 4 <= box; at += 4) {
        if (at == 12) continue; /* the minor version, not a brand */
        const unsigned char *b = bytes + at;
        if (memcmp(b, "avif", 4) == 0 || memcmp(b, "avis", 4) == 0) return DR_FORMAT_AVIF;
        if (memcmp(b, "heic", 4) == 0 || memcmp(b, "heix", 4) == 0 || memcmp(b, "heim", 4) == 0 ||
            memcmp(b, "heis", 4) == 0 || memcmp(b, "hevc", 4) == 0 || memcmp(b, "hevx", 4) == 0 ||
            memcmp(b, "mif1", 4) == 0 || memcmp(b, "msf1", 4) == 0)
            heif = 1;
    }
    return heif ? DR_FORMAT_HEIF : 0;
}

int dr_sniff(const unsigned char *bytes, size_t length) {
    int raw = dr_sniff_raw(bytes, length); /* before TIFF and ISO BMFF, whose signatures most RAWs share */
    if (raw != 0) return raw;
    if (length >= 8 && memcmp(bytes, png_signature, 8) == 0) return DR_FORMAT_PNG;
    if (length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return DR_FORMAT_JPEG;
    if (length >= 4 && (memcmp(bytes, "II*\0", 4) == 0 || memcmp(bytes, "MM\0*", 4) == 0 ||
                        memcmp(bytes, "II+\0", 4) == 0 || memcmp(bytes, "MM\0+", 4) == 0))
        return DR_FORMAT_TIFF;
    if (length >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WEBP", 4) == 0) return DR_FORMAT_WEBP;
    if (length >= 6 && (memcmp(bytes, "GIF87a", 6) == 0 || memcmp(bytes, "GIF89a", 6) == 0)) return DR_FORMAT_GIF;
    if (dr_sniff_jxl(bytes, length)) return DR_FORMAT_JXL;
    int heif = sniff_heif(bytes, length);
    return heif ? heif : dr_sniff_vector(bytes, length);
}

void dr_info_reset(dr_info *info) {
    unsigned char *exif = info->exif;
    size_t capacity = info->exif_capacity;
    struct dr_metadata *metadata = info->metadata;
    dr_info_free(info);
    memset(info, 0, sizeof *info);
    info->exif = exif;
    info->exif_capacity = capacity;
    info->metadata = metadata;
    info->pages = 1;
}

/* No message: the Swift side words it from its table of formats (ImageFormat.unrecognisedMessage),
 * so that the list of formats is written in one place. */
static dr_status not_an_image(char *message, size_t capacity) {
    if (capacity > 0) message[0] = '\0';
    return DR_NOT_AN_IMAGE;
}

dr_status dr_too_large(const dr_info *info, uint64_t max_pixels, char *message, size_t capacity) {
    dr_set_message(message, capacity, "image is %d×%d pixels, over the limit of %llu pixels",
                   info->width, info->height, (unsigned long long)max_pixels);
    return DR_TOO_LARGE;
}

void dr_cmyk_to_rgb(const unsigned char *in, unsigned char *out, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        const unsigned char *p = in + 4 * x;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        out[3 * x] = (unsigned char)((c * k + 127) / 255);
        out[3 * x + 1] = (unsigned char)((m * k + 127) / 255);
        out[3 * x + 2] = (unsigned char)((y * k + 127) / 255);
    }
}

void dr_unpremultiply(unsigned char *row, size_t pixels, int bytes_per_sample) {
    if (bytes_per_sample == 2) {
        uint16_t *p = (uint16_t *)(void *)row;
        for (size_t i = 0; i < pixels; i++, p += 4) {
            unsigned a = p[3];
            if (a == 0 || a == 65535) continue;
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 65535u + a / 2) / a;
                p[c] = (uint16_t)(v > 65535 ? 65535 : v);
            }
        }
        return;
    }
    for (size_t i = 0; i < pixels; i++, row += 4) {
        unsigned a = row[3];
        if (a == 0 || a == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned v = (row[c] * 255u + a / 2) / a;
            row[c] = (unsigned char)(v > 255 ? 255 : v);
        }
    }
}

static dr_info_reader info_reader(int format) {
    switch (format) {
    case DR_FORMAT_PNG: return dr_png_read_info;
    case DR_FORMAT_JPEG: return dr_jpeg_read_info;
    case DR_FORMAT_TIFF: return dr_tiff_read_info;
    case DR_FORMAT_WEBP: return dr_webp_read_info;
    case DR_FORMAT_GIF: return dr_gif_read_info;
    case DR_FORMAT_JXL: return dr_jxl_read_info;
    case DR_FORMAT_HEIF:
    case DR_FORMAT_AVIF: return dr_heif_read_info;
    case DR_FORMAT_PDF:
    case DR_FORMAT_SVG: return dr_vector_read_info;
    case DR_FORMAT_RAW: return dr_raw_read_info;
    default: return NULL;
    }
}

static dr_reader_opener reader_opener(int format) {
    switch (format) {
    case DR_FORMAT_PNG: return dr_png_reader_open;
    case DR_FORMAT_JPEG: return dr_jpeg_reader_open;
    case DR_FORMAT_TIFF: return dr_tiff_reader_open;
    case DR_FORMAT_WEBP: return dr_webp_reader_open;
    case DR_FORMAT_GIF: return dr_gif_reader_open;
    case DR_FORMAT_JXL: return dr_jxl_reader_open;
    case DR_FORMAT_HEIF:
    case DR_FORMAT_AVIF: return dr_heif_reader_open;
    case DR_FORMAT_PDF:
    case DR_FORMAT_SVG: return dr_vector_reader_open;
    case DR_FORMAT_RAW: return dr_raw_reader_open;
    default: return NULL;
    }
}

dr_status dr_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                       char *message, size_t capacity) {
    dr_info_reset(info);
    dr_info_reader read = info_reader(dr_sniff(bytes, length));
    return read != NULL ? read(bytes, length, info, message, capacity) : not_an_image(message, capacity);
}

dr_status dr_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                         dr_info *info, dr_reader **reader, char *message, size_t capacity) {
    dr_info_reset(info);
    *reader = NULL;
    dr_reader_opener open = reader_opener(dr_sniff(bytes, length));
    return open != NULL ? open(bytes, length, options, info, reader, message, capacity)
                        : not_an_image(message, capacity);
}

/* The format of the file behind `fd`, by its first bytes; DR_OK or why it cannot be read. */
static dr_status file_format(int fd, uint64_t length, int *format, char *message, size_t capacity) {
    unsigned char head[DR_SNIFF_LENGTH];
    size_t n = length < sizeof head ? (size_t)length : sizeof head;
    ssize_t got;
    do got = pread(fd, head, n, 0); while (got < 0 && errno == EINTR);
    if (got < 0) {
        dr_set_message(message, capacity, "the file could not be read: %s", strerror(errno));
        return DR_TRUNCATED;
    }
    *format = dr_sniff(head, (size_t)got);
    if (*format == DR_FORMAT_TIFF || *format == DR_FORMAT_JPEG || *format == DR_FORMAT_RAW) return DR_OK;
    dr_set_message(message, capacity, "only a TIFF, a JPEG or a camera RAW is read in place; this file is read from memory");
    return DR_UNSUPPORTED;
}

dr_status dr_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity) {
    dr_info_reset(info);
    int format = 0;
    dr_status status = file_format(fd, length, &format, message, capacity);
    if (status != DR_OK) return status;
    if (format == DR_FORMAT_RAW) return dr_raw_read_info_file(fd, length, info, message, capacity);
    return format == DR_FORMAT_TIFF ? dr_tiff_read_info_file(fd, length, info, message, capacity)
                                    : dr_jpeg_read_info_file(fd, length, info, message, capacity);
}

dr_status dr_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                              dr_reader **reader, char *message, size_t capacity) {
    dr_info_reset(info);
    *reader = NULL;
    int format = 0;
    dr_status status = file_format(fd, length, &format, message, capacity);
    if (status != DR_OK) return status;
    if (format == DR_FORMAT_RAW) return dr_raw_reader_open_file(fd, length, options, info, reader, message, capacity);
    return format == DR_FORMAT_TIFF ? dr_tiff_reader_open_file(fd, length, options, info, reader, message, capacity)
                                    : dr_jpeg_reader_open_file(fd, length, options, info, reader, message, capacity);
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
    return r->read_rows(r, rows, stride, count, message, capacity);
}

const char *dr_reader_warning(const dr_reader *r) { return r->warning; }

int dr_reader_converts_color(const dr_reader *r) { return r->color != NULL; }

void dr_reader_close(dr_reader *r) {
    if (r != NULL) r->close(r);
}

dr_status dr_writer_set_icc(dr_writer *w, const unsigned char *profile, size_t length,
                            char *message, size_t capacity) {
    return w->set_icc(w, profile, length, message, capacity);
}

dr_status dr_writer_write_rows(dr_writer *w, const unsigned char *rows, size_t stride, int count,
                               char *message, size_t capacity) {
    return w->write_rows(w, rows, stride, count, message, capacity);
}

dr_status dr_writer_end(dr_writer *w, size_t *length, char *message, size_t capacity) {
    *length = 0;
    if (w->end != NULL) return w->end(w, length, message, capacity);
    dr_status status = w->finish(w, &w->ended, message, capacity);
    if (status == DR_OK) *length = w->sink.to_file ? (size_t)w->sink.length : w->ended.length;
    return status;
}

dr_status dr_writer_end_frame(dr_writer *w, int delay_ms, char *message, size_t capacity) {
    if (w->end_frame != NULL) return w->end_frame(w, delay_ms, message, capacity);
    dr_set_message(message, capacity, "this format holds one image, not frames");
    return DR_UNSUPPORTED;
}

void dr_writer_take(dr_writer *w, unsigned char *into) {
    if (w->take != NULL) {
        w->take(w, into);
        return;
    }
    /* Copied from the end a megabyte at a time, the buffer shrunk behind each piece, so a
       large file is not held twice: a large buffer is its own mapping (darkroom fixes glibc's
       mmap threshold), and realloc shrinks it in place, giving the pages back. */
    const size_t piece = (size_t)1 << 20;
    size_t left = w->ended.length;
    while (left > 0) {
        size_t n = left < piece ? left : piece;
        left -= n;
        memcpy(into + left, w->ended.data + left, n);
        if (left > 0) {
            unsigned char *shrunk = realloc(w->ended.data, left);
            if (shrunk != NULL) w->ended.data = shrunk;
        }
    }
    dr_buffer_free(&w->ended);
}

void dr_writer_close(dr_writer *w) {
    if (w == NULL) return;
    dr_buffer_free(&w->ended);
    w->close(w);
}
