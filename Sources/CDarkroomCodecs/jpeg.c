/*
 * JPEG decode and encode through libjpeg(-turbo).
 *
 * libjpeg's default error_exit prints and calls exit(); here it longjmps back to the function
 * that owns the jmp_buf. Warnings that mean the pixels are wrong (premature end of file, bad
 * Huffman codes, ...) are promoted to errors: a silently half-grey image is worse than a failure.
 */
#include "internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub; /* first, so a j_common_ptr's err can be cast back */
    jmp_buf jump;
    dr_status status;
    int encoding;
    char *message;
    size_t capacity;
} error_context;

static dr_status classify_error(int code, int encoding) {
    switch (code) {
    case JERR_OUT_OF_MEMORY: return DR_OUT_OF_MEMORY;
    default: break;
    }
    if (encoding) return DR_ENCODE_FAILED;
    switch (code) {
    case JERR_BAD_PRECISION:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
        return DR_UNSUPPORTED;
    case JERR_IMAGE_TOO_BIG:
        return DR_TOO_LARGE;
    case JERR_INPUT_EOF:
        return DR_TRUNCATED;
    default:
        return DR_CORRUPT;
    }
}

/* Records the first failure and its text, then leaves libjpeg. */
static void fail(j_common_ptr cinfo, dr_status status) {
    error_context *ctx = (error_context *)cinfo->err;
    if (ctx->status == DR_OK) {
        ctx->status = status;
        if (status == DR_TRUNCATED) {
            dr_set_message(ctx->message, ctx->capacity, "JPEG data ends early (truncated file?)");
        } else {
            char text[JMSG_LENGTH_MAX];
            (*cinfo->err->format_message)(cinfo, text);
            dr_set_message(ctx->message, ctx->capacity, "JPEG: %s", text);
        }
    }
    longjmp(ctx->jump, 1);
}

static void on_error_exit(j_common_ptr cinfo) {
    error_context *ctx = (error_context *)cinfo->err;
    fail(cinfo, classify_error(cinfo->err->msg_code, ctx->encoding));
}

/* Level -1 is a warning; higher levels are trace messages, never printed. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    error_context *ctx = (error_context *)cinfo->err;
    if (level >= 0 || ctx->encoding) return;
    switch (cinfo->err->msg_code) {
    /* Metadata oddities: the pixels are still right. */
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
        cinfo->err->num_warnings++;
        return;
    case JWRN_JPEG_EOF:
        fail(cinfo, DR_TRUNCATED);
        return;
    default:
        fail(cinfo, DR_CORRUPT);
        return;
    }
}

static void install_errors(error_context *ctx, int encoding, char *message, size_t capacity) {
    memset(ctx, 0, sizeof *ctx);
    jpeg_std_error(&ctx->pub);
    ctx->pub.error_exit = on_error_exit;
    ctx->pub.emit_message = on_emit_message;
    ctx->encoding = encoding;
    ctx->message = message;
    ctx->capacity = capacity;
}

static int marker_has_prefix(jpeg_saved_marker_ptr m, const char *prefix, size_t n) {
    return m->data_length >= n && memcmp(m->data, prefix, n) == 0;
}

/* Fills the header fields after jpeg_read_header (markers APP1/APP2 must have been saved). */
static void describe(j_decompress_ptr cinfo, dr_info *info) {
    info->format = DR_FORMAT_JPEG;
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->channels = cinfo->num_components;
    info->bit_depth = cinfo->data_precision;
    info->interlaced = cinfo->progressive_mode ? 1 : 0;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: info->color_space = DR_SPACE_GRAY; break;
    case JCS_YCbCr:
    case JCS_RGB: info->color_space = DR_SPACE_RGB; break;
    case JCS_CMYK: info->color_space = DR_SPACE_CMYK; break;
    case JCS_YCCK: info->color_space = DR_SPACE_YCCK; break;
    default: info->color_space = 0; break;
    }
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && marker_has_prefix(m, "Exif\0\0", 6))
            dr_info_store_exif(info, m->data + 6, m->data_length - 6);
        else if (m->marker == JPEG_APP0 + 2 && marker_has_prefix(m, "ICC_PROFILE\0", 12))
            info->has_icc = 1;
    }
}

static void begin(j_decompress_ptr cinfo, const unsigned char *bytes, size_t length) {
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, bytes, (unsigned long)length);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    (void)jpeg_read_header(cinfo, TRUE);
}

dr_status dr_jpeg_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity) {
    struct jpeg_decompress_struct cinfo;
    error_context errors;
    install_errors(&errors, 0, message, capacity);
    cinfo.err = &errors.pub;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return errors.status;
    }
    begin(&cinfo, bytes, length);
    describe(&cinfo, info);
    jpeg_destroy_decompress(&cinfo);
    return DR_OK;
}

/*
 * CMYK rows to RGBA in place, without colour management. Adobe (Photoshop) files store inverted
 * CMYK, where 255 means no ink.
 */
static void cmyk_to_rgba(unsigned char *row, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        unsigned char *p = row + 4 * x;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        p[0] = (unsigned char)((c * k + 127) / 255);
        p[1] = (unsigned char)((m * k + 127) / 255);
        p[2] = (unsigned char)((y * k + 127) / 255);
        p[3] = 255;
    }
}

dr_status dr_jpeg_decode(const unsigned char *bytes, size_t length, int shrink,
                         uint64_t max_pixels, dr_info *info, dr_pixels *pixels,
                         char *message, size_t capacity) {
    struct jpeg_decompress_struct cinfo;
    error_context errors;
    unsigned char *volatile data = NULL;
    install_errors(&errors, 0, message, capacity);
    cinfo.err = &errors.pub;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(data);
        return errors.status;
    }
    begin(&cinfo, bytes, length);
    describe(&cinfo, info);
    if (!dr_fits(info, max_pixels)) {
        jpeg_destroy_decompress(&cinfo);
        dr_set_message(message, capacity, "image is %d×%d pixels, over the limit of %llu pixels",
                       info->width, info->height, (unsigned long long)max_pixels);
        return DR_TOO_LARGE;
    }
    int cmyk = 0;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB: cinfo.out_color_space = JCS_EXT_RGBA; break;
    case JCS_CMYK:
    case JCS_YCCK: cinfo.out_color_space = JCS_CMYK; cmyk = 1; break;
    default:
        jpeg_destroy_decompress(&cinfo);
        dr_set_message(message, capacity, "JPEG with %d components in an unknown colour space is not supported",
                       cinfo.num_components);
        return DR_UNSUPPORTED;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (shrink == 2 || shrink == 4 || shrink == 8) ? (unsigned)shrink : 1;
    jpeg_start_decompress(&cinfo);
    int width = (int)cinfo.output_width, height = (int)cinfo.output_height;
    size_t row_bytes = (size_t)width * 4;
    if (cinfo.output_components != 4) {
        errors.status = DR_UNSUPPORTED;
        dr_set_message(message, capacity, "JPEG: unexpected output layout");
        longjmp(errors.jump, 1);
    }
    data = malloc(row_bytes * (size_t)(height > 0 ? height : 1));
    if (data == NULL) {
        errors.status = DR_OUT_OF_MEMORY;
        dr_set_message(message, capacity, "out of memory for a %d×%d JPEG", width, height);
        longjmp(errors.jump, 1);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[16];
        int n = 0;
        for (; n < 16 && cinfo.output_scanline + (unsigned)n < cinfo.output_height; n++)
            rows[n] = data + row_bytes * (cinfo.output_scanline + (size_t)n);
        JDIMENSION before = cinfo.output_scanline;
        JDIMENSION got = jpeg_read_scanlines(&cinfo, rows, (JDIMENSION)n);
        if (cmyk)
            for (JDIMENSION r = 0; r < got; r++)
                cmyk_to_rgba(data + row_bytes * (before + r), width, cinfo.saw_Adobe_marker);
        if (got == 0) break;
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    pixels->data = data;
    pixels->width = width;
    pixels->height = height;
    pixels->bytes_per_sample = 1;
    return DR_OK;
}

/* A destination manager that appends to a dr_buffer through a fixed staging block. */
typedef struct {
    struct jpeg_destination_mgr pub;
    dr_buffer *out;
    JOCTET block[65536];
} buffer_destination;

static void dest_init(j_compress_ptr cinfo) {
    buffer_destination *d = (buffer_destination *)cinfo->dest;
    d->pub.next_output_byte = d->block;
    d->pub.free_in_buffer = sizeof d->block;
}

static boolean dest_empty(j_compress_ptr cinfo) {
    buffer_destination *d = (buffer_destination *)cinfo->dest;
    if (!dr_buffer_append(d->out, d->block, sizeof d->block)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    d->pub.next_output_byte = d->block;
    d->pub.free_in_buffer = sizeof d->block;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    buffer_destination *d = (buffer_destination *)cinfo->dest;
    size_t used = sizeof d->block - d->pub.free_in_buffer;
    if (!dr_buffer_append(d->out, d->block, used)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
}

dr_status dr_encode_jpeg(const unsigned char *rgba, int width, int height, int quality,
                         int progressive, dr_buffer *out, char *message, size_t capacity) {
    struct jpeg_compress_struct cinfo;
    error_context errors;
    buffer_destination *volatile dest = NULL;
    memset(out, 0, sizeof *out);
    install_errors(&errors, 1, message, capacity);
    cinfo.err = &errors.pub;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(dest);
        dr_buffer_free(out);
        return errors.status;
    }
    jpeg_create_compress(&cinfo);
    dest = calloc(1, sizeof *dest);
    if (dest == NULL) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
    dest->out = out;
    dest->pub.init_destination = dest_init;
    dest->pub.empty_output_buffer = dest_empty;
    dest->pub.term_destination = dest_term;
    cinfo.dest = &dest->pub;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBX; /* the fourth byte is skipped */
    jpeg_set_defaults(&cinfo);           /* YCbCr, 2×2 luma sampling: 4:2:0 */
    jpeg_set_quality(&cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    size_t row_bytes = (size_t)width * 4;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgba + row_bytes * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(dest);
    return DR_OK;
}
