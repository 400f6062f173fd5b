/*
 * PNG through libpng, row by row: a reader that decodes rows on demand (an interlaced file is
 * decoded whole, in its compact 8- or 16-bit form, since its rows arrive in seven passes) and a
 * writer that takes rows or deflated segments in order: libpng writes the chunks before the
 * image data, png_idat.c the image data (a palette candidate's goes through libpng). Every
 * libpng error is caught by the setjmp each entry point arms first.
 */
#include "internal.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRUNCATED_MESSAGE "PNG data ends early (truncated file?)"

/* State shared with libpng's callbacks. `status` is set by whoever first knows the cause. */
typedef struct {
    const unsigned char *bytes;
    size_t length;
    size_t offset;
    dr_status status;
    char *message;
    size_t capacity;
    dr_sink *out;   /* writing: where the bytes go */
    char *warning;  /* where a dropped iCCP is reported (160 bytes), or NULL */
} png_context;

/* Maps libpng's error text to a status; libpng has no error codes. */
static dr_status classify(const char *text) {
    if (strstr(text, "Not enough image data") != NULL) return DR_TRUNCATED;
    if (strstr(text, "exceeds user limit") != NULL) return DR_TOO_LARGE;
    if (strstr(text, "Out of memory") != NULL || strstr(text, "out of memory") != NULL)
        return DR_OUT_OF_MEMORY;
    return DR_CORRUPT;
}

static void on_error(png_structp png, png_const_charp text) {
    png_context *ctx = png_get_error_ptr(png);
    if (ctx->status == DR_OK) {
        ctx->status = ctx->out != NULL ? DR_ENCODE_FAILED : classify(text);
        if (ctx->status == DR_TRUNCATED)
            dr_set_message(ctx->message, ctx->capacity, TRUNCATED_MESSAGE);
        else
            dr_set_message(ctx->message, ctx->capacity, "PNG: %s", text);
    }
    png_longjmp(png, 1);
}

/* Warnings (bad ancillary chunks, benign errors) do not stop the decode. One is reported: an
 * ICC profile libpng refused, since the colours then change meaning. */
static void on_warning(png_structp png, png_const_charp text) {
    png_context *ctx = png_get_error_ptr(png);
    if (ctx != NULL && ctx->warning != NULL && ctx->warning[0] == 0 && strncmp(text, "iCCP", 4) == 0)
        snprintf(ctx->warning, 160, "ICC profile ignored (libpng: %s); colours taken as sRGB", text);
}

static void read_bytes(png_structp png, png_bytep into, size_t count) {
    png_context *ctx = png_get_io_ptr(png);
    if (count > ctx->length - ctx->offset) {
        ctx->status = DR_TRUNCATED;
        dr_set_message(ctx->message, ctx->capacity, TRUNCATED_MESSAGE);
        png_error(png, TRUNCATED_MESSAGE);
    }
    memcpy(into, ctx->bytes + ctx->offset, count);
    ctx->offset += count;
}

static void flush_bytes(png_structp png) { (void)png; }

/* Sets the status and message, then leaves libpng. */
static void fail(png_structp png, png_context *ctx, dr_status status, const char *text) {
    if (ctx->status == DR_OK) {
        ctx->status = status;
        dr_set_message(ctx->message, ctx->capacity, "%s", text);
    }
    png_error(png, text);
}

static void write_bytes(png_structp png, png_bytep from, size_t count) {
    png_context *ctx = png_get_io_ptr(png);
    char reason[160] = "";
    dr_status status = dr_sink_put(ctx->out, from, count, reason, sizeof reason);
    if (status != DR_OK) fail(png, ctx, status, reason);
}

/* Fills the header fields from libpng's info struct (after png_read_info). */
static void describe(png_structp png, png_infop pi, dr_info *info) {
    int type = png_get_color_type(png, pi);
    info->format = DR_FORMAT_PNG;
    info->width = (int)png_get_image_width(png, pi);
    info->height = (int)png_get_image_height(png, pi);
    info->bit_depth = png_get_bit_depth(png, pi);
    info->channels = png_get_channels(png, pi);
    info->interlaced = png_get_interlace_type(png, pi) != PNG_INTERLACE_NONE;
    info->has_alpha = (type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, pi, PNG_INFO_tRNS) != 0;
    info->has_icc = png_get_valid(png, pi, PNG_INFO_iCCP) != 0;
    if (type == PNG_COLOR_TYPE_PALETTE) info->color_space = DR_SPACE_PALETTE;
    else if (type & PNG_COLOR_MASK_COLOR) info->color_space = DR_SPACE_RGB;
    else info->color_space = DR_SPACE_GRAY;
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, pi, &exif_length, &exif) != 0 && exif != NULL)
        dr_info_store_exif(info, exif, exif_length);
    png_charp icc_name = NULL;
    int icc_compression = 0;
    png_bytep icc = NULL;
    png_uint_32 icc_length = 0;
    if (png_get_iCCP(png, pi, &icc_name, &icc_compression, &icc, &icc_length) != 0 && icc != NULL &&
        !dr_info_store_icc(info, icc, icc_length))
        png_error(png, "out of memory");
    if (info->metadata != NULL) dr_png_collect_metadata(png, pi, info->metadata);
}

/* Asks libpng for straight RGB or RGBA at the file's depth (8 or 16 bits, host byte order). */
static void request_rgb(png_structp png, png_infop pi) {
    int type = png_get_color_type(png, pi);
    int depth = png_get_bit_depth(png, pi);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, pi, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if ((type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (depth == 16) png_set_swap(png);
#endif
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, pi);
}

/* The header checks are ours: libpng's own user limits (a million pixels a side) would turn a
 * 1×100000000 image into "Invalid IHDR data" instead of "too large". */
static png_structp create_reader(png_context *ctx) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, on_error, on_warning);
    if (png != NULL) {
        png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
        /* libpng refuses a few old sRGB profiles it knows by checksum (HP's, in many PNGs
         * exported years ago) with "known incorrect sRGB profile"; they describe sRGB well
         * enough, and the colour code's own check decides whether to convert. */
#if defined(PNG_SKIP_sRGB_CHECK_PROFILE) && defined(PNG_SET_OPTION_SUPPORTED)
        png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
    }
    return png;
}

static void context_init(png_context *ctx, const unsigned char *bytes, size_t length,
                         char *message, size_t capacity) {
    memset(ctx, 0, sizeof *ctx);
    ctx->bytes = bytes;
    ctx->length = length;
    ctx->message = message;
    ctx->capacity = capacity;
}

dr_status dr_png_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity) {
    png_context ctx;
    context_init(&ctx, bytes, length, message, capacity);
    ctx.warning = info->warning;
    png_structp png = create_reader(&ctx);
    if (png == NULL) return DR_OUT_OF_MEMORY;
    png_infop pi = png_create_info_struct(png);
    if (pi == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &pi, NULL);
        return ctx.status == DR_OK ? DR_OUT_OF_MEMORY : ctx.status;
    }
    png_set_read_fn(png, &ctx, read_bytes);
    png_read_info(png, pi);
    describe(png, pi, info);
    png_destroy_read_struct(&png, &pi, NULL);
    if (info->metadata != NULL) dr_png_collect_trailing_metadata(bytes, length, info->metadata);
    return DR_OK;
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    png_structp png;
    png_infop info;
    png_context ctx;
    size_t row_bytes;        /* one whole decoded row */
    size_t pixel_bytes;
    int file_height;
    int crop_x, crop_y;
    int next_row;            /* next file row libpng delivers, or (interlaced) to hand out */
    unsigned char *whole;    /* interlaced: every row, compact */
    unsigned char *scratch;  /* one row, when columns are cropped or rows skipped */
} png_reader;

static void png_reader_free(png_reader *r) {
    png_destroy_read_struct(&r->png, &r->info, NULL);
    dr_color_converter_free(r->base.color);
    free(r->whole);
    free(r->scratch);
    free(r);
}

dr_status dr_png_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **out, char *message, size_t capacity) {
    png_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return DR_OUT_OF_MEMORY;
    context_init(&r->ctx, bytes, length, message, capacity);
    r->ctx.warning = r->base.warning;
    r->png = create_reader(&r->ctx);
    if (r->png == NULL) { free(r); return DR_OUT_OF_MEMORY; }
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL || setjmp(png_jmpbuf(r->png))) {
        dr_status status = r->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : r->ctx.status;
        png_reader_free(r);
        return status;
    }
    png_set_read_fn(r->png, &r->ctx, read_bytes);
    png_read_info(r->png, r->info);
    describe(r->png, r->info, info);
    if (!dr_fits(info, options->max_pixels)) {
        char text[160];
        snprintf(text, sizeof text, "image is %d×%d pixels, over the limit of %llu pixels",
                 info->width, info->height, (unsigned long long)options->max_pixels);
        fail(r->png, &r->ctx, DR_TOO_LARGE, text);
    }
    request_rgb(r->png, r->info);
    int channels = png_get_channels(r->png, r->info);
    int sample_bytes = png_get_bit_depth(r->png, r->info) == 16 ? 2 : 1;
    r->pixel_bytes = (size_t)channels * (size_t)sample_bytes;
    r->row_bytes = (size_t)info->width * r->pixel_bytes;
    if ((channels != 3 && channels != 4) || png_get_rowbytes(r->png, r->info) != r->row_bytes)
        fail(r->png, &r->ctx, DR_UNSUPPORTED, "PNG: unexpected pixel layout after conversion to RGB");
    int x, y, w, h;
    dr_clamp_crop(options, info->width, info->height, &x, &y, &w, &h);
    r->crop_x = x;
    r->crop_y = y;
    r->file_height = info->height;
    r->base.format = DR_FORMAT_PNG;
    r->base.read_rows = dr_png_read_rows;
    r->base.close = dr_png_reader_close;
    r->base.width = w;
    r->base.height = h;
    r->base.channels = channels;
    r->base.bytes_per_sample = sample_bytes;
    r->base.color = dr_reader_color_setup(&r->base, info, options,
                                          info->color_space == DR_SPACE_GRAY ? DR_SPACE_GRAY : DR_SPACE_RGB, channels, 0);
    if (info->interlaced) {
        /* Seven passes over the image: decode it whole, compact, then hand rows out. */
        r->whole = malloc(r->row_bytes * (size_t)info->height);
        png_bytep *rows = malloc(sizeof(png_bytep) * (size_t)info->height);
        if (r->whole == NULL || rows == NULL) {
            free(rows);
            fail(r->png, &r->ctx, DR_OUT_OF_MEMORY, "out of memory for an interlaced PNG");
        }
        for (int i = 0; i < info->height; i++) rows[i] = r->whole + r->row_bytes * (size_t)i;
        /* rows is freed on both paths: a libpng error longjmps out of png_read_image. */
        png_bytep *volatile owned = rows;
        if (setjmp(png_jmpbuf(r->png))) {
            free(owned);
            dr_status status = r->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : r->ctx.status;
            png_reader_free(r);
            return status;
        }
        png_read_image(r->png, rows);
        png_read_end(r->png, NULL);
        free(owned);
        r->next_row = y;
    } else if (w != info->width) {
        r->scratch = malloc(r->row_bytes);
        if (r->scratch == NULL) fail(r->png, &r->ctx, DR_OUT_OF_MEMORY, "out of memory for a PNG row");
    }
    *out = &r->base;
    return DR_OK;
}

/* Delivered rows from the embedded profile to sRGB, in place, when the reader converts. */
static void convert_rows(const png_reader *r, unsigned char *rows, size_t stride, int count) {
    if (r->base.color == NULL) return;
    for (int i = 0; i < count; i++)
        dr_color_converter_rows(r->base.color, rows + stride * (size_t)i, (size_t)r->base.width);
}

dr_status dr_png_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count,
                           char *message, size_t capacity) {
    png_reader *r = (png_reader *)base;
    if (r->ctx.status != DR_OK) {
        dr_set_message(message, capacity, "the PNG reader failed earlier");
        return r->ctx.status;
    }
    r->ctx.message = message;
    r->ctx.capacity = capacity;
    r->ctx.bytes = r->base.bytes;
    size_t offset = (size_t)r->crop_x * r->pixel_bytes;
    size_t copy = (size_t)r->base.width * r->pixel_bytes;
    if (r->whole != NULL) {
        for (int i = 0; i < count; i++, r->next_row++)
            memcpy(rows + stride * (size_t)i, r->whole + r->row_bytes * (size_t)r->next_row + offset, copy);
        convert_rows(r, rows, stride, count);
        return DR_OK;
    }
    if (setjmp(png_jmpbuf(r->png))) return r->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : r->ctx.status;
    while (r->next_row < r->crop_y) {
        if (r->scratch == NULL) {
            r->scratch = malloc(r->row_bytes);
            if (r->scratch == NULL) fail(r->png, &r->ctx, DR_OUT_OF_MEMORY, "out of memory for a PNG row");
        }
        png_read_row(r->png, r->scratch, NULL);
        r->next_row++;
    }
    for (int i = 0; i < count; i++) {
        unsigned char *target = rows + stride * (size_t)i;
        if (r->base.width * r->pixel_bytes == r->row_bytes) {
            png_read_row(r->png, target, NULL);
        } else {
            png_read_row(r->png, r->scratch, NULL);
            memcpy(target, r->scratch + offset, copy);
        }
        r->next_row++;
    }
    /* The last row: read the rest of the file too, so a bad CRC or a truncated end fails. */
    if (r->next_row == r->file_height) png_read_end(r->png, NULL);
    convert_rows(r, rows, stride, count);
    return DR_OK;
}

void dr_png_reader_close(dr_reader *base) { png_reader_free((png_reader *)base); }

/* ---- writer ---- */

typedef struct {
    dr_writer base; /* first: the generic writer */
    png_structp png;
    png_infop info;
    png_context ctx;
    dr_buffer out;
    int width, height;
    int written;
    int channels, depth;
    size_t row_bytes;
    int started;  /* png_write_info done: chunks before IDAT (iCCP) can no longer be set */
    /* Palette candidates: the rows are kept here and the header is decided at finish. */
    int palette;
    dr_buffer kept;
    unsigned char *indices; /* the kept rows as palette indices */
    dr_png_idat idat;       /* the image data, when not a palette candidate */
} png_writer;

/* Points a call at its message buffer; the status of an earlier failure, if any. */
static dr_status enter(png_writer *w, char *message, size_t capacity) {
    if (w->ctx.status != DR_OK) return w->ctx.status;
    w->ctx.message = message;
    w->ctx.capacity = capacity;
    return DR_OK;
}

static int color_type(int channels) {
    switch (channels) {
    case 1: return PNG_COLOR_TYPE_GRAY;
    case 2: return PNG_COLOR_TYPE_GRAY_ALPHA;
    case 3: return PNG_COLOR_TYPE_RGB;
    default: return PNG_COLOR_TYPE_RGB_ALPHA;
    }
}

static void set_header(png_writer *w, int type, int depth) {
    png_set_IHDR(w->png, w->info, (png_uint_32)w->width, (png_uint_32)w->height, depth, type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
}

/* More rows than the image has left: the caller's mistake, and the file would be wrong. */
static dr_status rows_over(png_writer *w, int count) {
    dr_set_message(w->ctx.message, w->ctx.capacity, "PNG: %d more rows given after %d of %d", count, w->written, w->height);
    return w->ctx.status = DR_ENCODE_FAILED;
}

/* A failure of the image data's writing is the writer's from then on. */
static dr_status idat_status(png_writer *w, dr_status status) {
    if (status != DR_OK && w->ctx.status == DR_OK) w->ctx.status = status;
    return status;
}

/* Writes the chunks before the image data, once, at the first row. */
static void start(png_writer *w) {
    if (w->started) return;
    png_write_info(w->png, w->info);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (w->depth == 16) png_set_swap(w->png);
#endif
    w->started = 1;
}

static void png_writer_free(png_writer *w) {
    png_destroy_write_struct(&w->png, &w->info);
    dr_png_idat_free(&w->idat);
    dr_buffer_free(&w->out);
    dr_buffer_free(&w->kept);
    free(w->indices);
    free(w);
}

dr_status dr_png_writer_open(int width, int height, const dr_png_write_options *options,
                             const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    png_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    context_init(&w->ctx, NULL, 0, message, capacity);
    dr_sink_init(&w->base.sink, &w->out, options->to_file, options->fd);
    w->ctx.out = &w->base.sink;
    w->base.format = DR_FORMAT_PNG;
    w->base.set_icc = dr_png_writer_set_icc;
    w->base.write_rows = dr_png_write_rows;
    w->base.finish = dr_png_writer_finish;
    w->base.close = dr_png_writer_close;
    w->width = width;
    w->height = height;
    w->channels = options->channels < 1 ? 1 : options->channels > 4 ? 4 : options->channels;
    w->depth = options->bit_depth == 16 ? 16 : 8;
    w->row_bytes = (size_t)width * (size_t)w->channels * (size_t)(w->depth / 8);
    w->palette = options->palette && w->depth == 8 && w->channels >= 3;
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w->ctx, on_error, on_warning);
    if (w->png == NULL) { free(w); return DR_OUT_OF_MEMORY; }
    w->info = png_create_info_struct(w->png);
    if (w->info == NULL || setjmp(png_jmpbuf(w->png))) {
        dr_status status = w->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : w->ctx.status;
        png_writer_free(w);
        return status;
    }
    png_set_write_fn(w->png, &w->ctx, write_bytes, flush_bytes);
    /* A palette candidate is described as RGB(A) until finish knows whether its colours fit
     * (an ICC profile set meanwhile is checked against a colour image, which a palette is too). */
    set_header(w, color_type(w->channels), w->depth);
    int level = options->compression;
    png_set_compression_level(w->png, level < 0 ? 0 : level > 9 ? 9 : level);
    dr_png_filter_options filter = {.bytes_per_pixel = w->channels * (w->depth / 8), .sixteen_bit = w->depth == 16,
                                    .effort = options->effort};
    if (!w->palette && dr_png_idat_init(&w->idat, w->row_bytes, &filter, level) != DR_OK)
        fail(w->png, &w->ctx, DR_OUT_OF_MEMORY, "out of memory while encoding PNG");
    if (metadata != NULL) dr_png_set_metadata(w->png, w->info, metadata);
    *out = &w->base;
    return DR_OK;
}

dr_status dr_png_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                            char *message, size_t capacity) {
    png_writer *w = (png_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->ctx.status;
    if (setjmp(png_jmpbuf(w->png))) return w->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : w->ctx.status;
    if (count > w->height - w->written) return rows_over(w, count);
    if (!w->palette) {
        start(w);
        w->written += count;
        return idat_status(w, dr_png_idat_rows(&w->idat, &w->base.sink, rows, stride, count,
                                               w->written == w->height, message, capacity));
    }
    for (int i = 0; i < count; i++) {
        if (!dr_buffer_append(&w->kept, rows + stride * (size_t)i, w->row_bytes))
            fail(w->png, &w->ctx, DR_OUT_OF_MEMORY, "out of memory while encoding PNG");
    }
    w->written += count;
    return DR_OK;
}

dr_status dr_png_write_segment(dr_writer *base, const dr_png_segment *segment, const unsigned char *bytes,
                               char *message, size_t capacity) {
    png_writer *w = (png_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->ctx.status;
    if (setjmp(png_jmpbuf(w->png))) return w->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : w->ctx.status;
    if (w->palette) {
        dr_set_message(message, capacity, "PNG: a palette candidate takes rows, not deflated strips");
        return w->ctx.status = DR_ENCODE_FAILED;
    }
    if (segment->rows > w->height - w->written) return rows_over(w, segment->rows);
    start(w);
    w->written += segment->rows;
    return idat_status(w, dr_png_idat_put(&w->idat, &w->base.sink, segment, bytes, message, capacity));
}

/* The kept rows as an indexed PNG when they use at most 256 colours, else as they are. */
static void write_kept(png_writer *w) {
    size_t pixels = (size_t)w->width * (size_t)w->height;
    unsigned char *indices = w->indices = malloc(pixels ? pixels : 1);
    if (indices == NULL) fail(w->png, &w->ctx, DR_OUT_OF_MEMORY, "out of memory while encoding PNG");
    dr_palette palette;
    int fits = dr_palette_index(w->kept.data, pixels, w->channels, &palette, indices);
    if (fits) {
        png_color colors[256];
        png_byte alphas[256];
        for (int i = 0; i < palette.count; i++) {
            colors[i].red = palette.entries[i][0];
            colors[i].green = palette.entries[i][1];
            colors[i].blue = palette.entries[i][2];
            alphas[i] = palette.entries[i][3];
        }
        int depth = palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8;
        set_header(w, PNG_COLOR_TYPE_PALETTE, depth);
        png_set_PLTE(w->png, w->info, colors, palette.count);
        if (palette.translucent > 0) png_set_tRNS(w->png, w->info, alphas, palette.translucent, NULL);
        start(w);
        if (depth < 8) png_set_packing(w->png);
    } else {
        start(w);
    }
    for (int y = 0; y < w->height; y++) {
        const unsigned char *row = fits ? indices + (size_t)y * (size_t)w->width : w->kept.data + w->row_bytes * (size_t)y;
        png_write_row(w->png, (png_const_bytep)row);
    }
}

dr_status dr_png_writer_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    png_writer *w = (png_writer *)base;
    memset(out, 0, sizeof *out);
    if (enter(w, message, capacity) != DR_OK) return w->ctx.status;
    if (setjmp(png_jmpbuf(w->png))) return w->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : w->ctx.status;
    if (w->written != w->height) {
        dr_set_message(message, capacity, "PNG: %d of %d rows were written", w->written, w->height);
        w->ctx.status = DR_ENCODE_FAILED;
        return DR_ENCODE_FAILED;
    }
    if (w->palette) {
        write_kept(w); /* decides the header, then writes it */
        png_write_end(w->png, NULL);
    } else {
        start(w);
        if (idat_status(w, dr_png_idat_end(&w->idat, &w->base.sink, message, capacity)) != DR_OK) return w->ctx.status;
    }
    *out = w->out;
    memset(&w->out, 0, sizeof w->out);
    return DR_OK;
}

dr_status dr_png_writer_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                                char *message, size_t capacity) {
    png_writer *w = (png_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->ctx.status;
    if (setjmp(png_jmpbuf(w->png))) return w->ctx.status == DR_OK ? DR_OUT_OF_MEMORY : w->ctx.status;
    if (w->started) {
        dr_set_message(message, capacity, "PNG: the ICC profile must come before the rows");
        return DR_ENCODE_FAILED;
    }
    /* libpng checks the profile against the image (an RGB profile for RGB data, a sane header);
     * a refusal is a warning, not an error, and leaves the file untagged. */
    png_set_benign_errors(w->png, 1);
    png_set_iCCP(w->png, w->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, profile, (png_uint_32)length);
    if (png_get_valid(w->png, w->info, PNG_INFO_iCCP) == 0) {
        dr_set_message(message, capacity, "libpng refused the ICC profile for this image");
        return DR_UNSUPPORTED;
    }
    return DR_OK;
}

void dr_png_writer_close(dr_writer *base) { png_writer_free((png_writer *)base); }
