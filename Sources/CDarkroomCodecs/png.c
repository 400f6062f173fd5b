/* PNG decode and encode through libpng, with every libpng error caught here by setjmp. */
#include "internal.h"

#include <png.h>
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
    dr_buffer *out;
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

/* Warnings (bad ancillary chunks, benign errors) do not stop the decode and are not reported. */
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
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

static void write_bytes(png_structp png, png_bytep from, size_t count) {
    png_context *ctx = png_get_io_ptr(png);
    if (!dr_buffer_append(ctx->out, from, count)) {
        ctx->status = DR_OUT_OF_MEMORY;
        dr_set_message(ctx->message, ctx->capacity, "out of memory while encoding PNG");
        png_error(png, "out of memory");
    }
}

static void flush_bytes(png_structp png) { (void)png; }

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
}

/* Asks libpng for straight RGBA at the file's depth (8 or 16 bits, host byte order). */
static void request_rgba(png_structp png, png_infop pi) {
    int type = png_get_color_type(png, pi);
    int depth = png_get_bit_depth(png, pi);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, pi, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if ((type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((type & PNG_COLOR_MASK_ALPHA) == 0 && !png_get_valid(png, pi, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xFFFF, PNG_FILLER_AFTER);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (depth == 16) png_set_swap(png);
#endif
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, pi);
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
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
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
    return DR_OK;
}

dr_status dr_png_decode(const unsigned char *bytes, size_t length, uint64_t max_pixels,
                        dr_info *info, dr_pixels *pixels, char *message, size_t capacity) {
    png_context ctx;
    context_init(&ctx, bytes, length, message, capacity);
    unsigned char *volatile data = NULL;
    png_bytep *volatile rows = NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (png == NULL) return DR_OUT_OF_MEMORY;
    png_infop pi = png_create_info_struct(png);
    if (pi == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &pi, NULL);
        free(rows);
        free(data);
        return ctx.status == DR_OK ? DR_OUT_OF_MEMORY : ctx.status;
    }
    png_set_read_fn(png, &ctx, read_bytes);
    png_read_info(png, pi);
    describe(png, pi, info);
    if (!dr_fits(info, max_pixels)) {
        ctx.status = DR_TOO_LARGE;
        dr_set_message(message, capacity, "image is %d×%d pixels, over the limit of %llu pixels",
                       info->width, info->height, (unsigned long long)max_pixels);
        png_error(png, "too large");
    }
    request_rgba(png, pi);
    int sample_bytes = info->bit_depth == 16 ? 2 : 1;
    size_t row_bytes = (size_t)info->width * 4 * (size_t)sample_bytes;
    if (png_get_rowbytes(png, pi) != row_bytes) {
        ctx.status = DR_UNSUPPORTED;
        dr_set_message(message, capacity, "PNG: unexpected pixel layout after conversion to RGBA");
        png_error(png, "layout");
    }
    data = malloc(row_bytes * (size_t)info->height);
    rows = malloc(sizeof(png_bytep) * (size_t)info->height);
    if (data == NULL || rows == NULL) {
        ctx.status = DR_OUT_OF_MEMORY;
        dr_set_message(message, capacity, "out of memory for a %d×%d PNG", info->width, info->height);
        png_error(png, "out of memory");
    }
    for (int y = 0; y < info->height; y++) rows[y] = data + row_bytes * (size_t)y;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &pi, NULL);
    free(rows);
    pixels->data = data;
    pixels->width = info->width;
    pixels->height = info->height;
    pixels->bytes_per_sample = sample_bytes;
    return DR_OK;
}

dr_status dr_encode_png(const unsigned char *rgba, int width, int height, int keep_alpha,
                        dr_buffer *out, char *message, size_t capacity) {
    png_context ctx;
    context_init(&ctx, NULL, 0, message, capacity);
    ctx.out = out;
    memset(out, 0, sizeof *out);
    png_bytep *volatile rows = NULL;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (png == NULL) return DR_OUT_OF_MEMORY;
    png_infop pi = png_create_info_struct(png);
    if (pi == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &pi);
        free(rows);
        dr_buffer_free(out);
        return ctx.status == DR_OK ? DR_OUT_OF_MEMORY : ctx.status;
    }
    png_set_write_fn(png, &ctx, write_bytes, flush_bytes);
    png_set_IHDR(png, pi, (png_uint_32)width, (png_uint_32)height, 8,
                 keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* zlib level 6: libpng's and zlib's usual trade-off between size and speed. */
    png_set_compression_level(png, 6);
    png_write_info(png, pi);
    /* On write, the filler transform strips the fourth byte so RGB is written from RGBA rows. */
    if (!keep_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
    rows = malloc(sizeof(png_bytep) * (size_t)(height > 0 ? height : 1));
    if (rows == NULL) {
        ctx.status = DR_OUT_OF_MEMORY;
        dr_set_message(message, capacity, "out of memory while encoding PNG");
        png_error(png, "out of memory");
    }
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(rgba + (size_t)width * 4 * (size_t)y);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &pi);
    free(rows);
    return DR_OK;
}
