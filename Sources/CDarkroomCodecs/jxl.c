/*
 * JPEG XL input through libjxl, a bare codestream (FF 0A) or the ISOBMFF container. The header
 * (basic info) is read and the pixel limit checked before any pixel memory; the first frame is
 * then decoded whole (libjxl 0.7 decodes a frame at once; the decoded image is counted in the
 * job's memory estimate) and handed out row by row. An animation gives its first frame.
 *
 * Samples come out as 8-bit, or 16-bit for images coded deeper (10-, 12-, 16-bit and float,
 * HDR included: libjxl delivers them as 16-bit integers); alpha is kept, unpremultiplied when
 * the file stores it premultiplied. Orientation is left to darkroom (info->orientation, from the
 * codestream, which JPEG XL makes authoritative over any EXIF tag), so a crop-on-load applies
 * to the stored image as in every format. Colour: the profile of the decoded samples, when they
 * are not sRGB already, is info->icc (the embedded ICC profile, or the one libjxl derives from
 * the coded colour description, Display P3 say) and converts as in every format. The Exif and
 * xml boxes (Brotli-compressed "brob" ones too) are the EXIF and XMP.
 *
 * libjxl returns status codes; nothing longjmps. Its parallel stages run on the compute slots
 * (jxl_runner.c), which also stop a decode at the deadline.
 */
#include "jxl_library.h"
#include "jxl_runner.h"

#include <stdlib.h>
#include <string.h>

#include <jxl/decode.h>

/* Metadata boxes larger than this are not kept (EXIF is at most 64 KB in a JPEG; XMP a few). */
#define MAX_BOX_BYTES (16u << 20)

/* The box being collected. */
typedef struct {
    int kind; /* 0 none, 1 Exif, 2 XMP */
    unsigned char *data;
    size_t capacity;
} box_buffer;

/* One pass of libjxl over the file: the header alone, or the first frame's pixels too. */
typedef struct {
    JxlDecoder *dec;
    dr_jxl_runner runner;
    const unsigned char *bytes;
    size_t length;
    dr_info *info;
    const dr_read_options *options; /* NULL: the header alone */
    JxlBasicInfo basic;
    JxlPixelFormat format;
    int have_basic, have_colour;
    int grey;
    box_buffer box;
    unsigned char discard[4096]; /* what is read of a box too large to keep */
    unsigned char *pixels; /* the decoded first frame, row_bytes apart */
    size_t row_bytes;
    int image_done;
} jxl_pass;

int dr_sniff_jxl(const unsigned char *bytes, size_t length) {
    static const unsigned char container[12] = {0, 0, 0, 12, 'J', 'X', 'L', ' ', 0x0D, 0x0A, 0x87, 0x0A};
    if (length >= 2 && bytes[0] == 0xFF && bytes[1] == 0x0A) return 1;
    return length >= 12 && memcmp(bytes, container, 12) == 0;
}

/* Keeps the box collected so far (an Exif box starts with the offset of its TIFF header). */
static void finish_box(jxl_pass *p) {
    box_buffer *b = &p->box;
    if (b->kind == 0) {
        dr_jxl.JxlDecoderReleaseBoxBuffer(p->dec); /* the discard buffer, if set */
        return;
    }
    size_t unused = dr_jxl.JxlDecoderReleaseBoxBuffer(p->dec);
    size_t used = b->capacity - unused;
    if (b->kind == 1 && used >= 4) {
        size_t offset = (size_t)b->data[0] << 24 | (size_t)b->data[1] << 16 | (size_t)b->data[2] << 8 | b->data[3];
        if (offset < used - 4) {
            const unsigned char *tiff = b->data + 4 + offset;
            size_t n = used - 4 - offset;
            dr_info_store_exif(p->info, tiff, n);
            if (p->info->metadata != NULL) dr_metadata_keep(&p->info->metadata->exif, &p->info->metadata->exif_length, tiff, n);
        }
    } else if (b->kind == 2 && used > 0 && p->info->metadata != NULL) {
        dr_metadata_keep(&p->info->metadata->xmp, &p->info->metadata->xmp_length, b->data, used);
    }
    free(b->data);
    *b = (box_buffer){0};
}

static void start_box(jxl_pass *p) {
    finish_box(p);
    JxlBoxType type;
    if (dr_jxl.JxlDecoderGetBoxType(p->dec, type, JXL_TRUE) != JXL_DEC_SUCCESS) return;
    int kind = memcmp(type, "Exif", 4) == 0 ? 1 : memcmp(type, "xml ", 4) == 0 ? 2 : 0;
    if (kind == 0 || (kind == 1 && p->info->exif == NULL && p->info->metadata == NULL) || (kind == 2 && p->info->metadata == NULL))
        return;
    if ((kind == 1 && (p->info->exif_length != 0 || (p->info->metadata && p->info->metadata->exif))) ||
        (kind == 2 && p->info->metadata->xmp != NULL))
        return; /* the first of each kind wins */
    p->box.data = malloc(65536);
    if (p->box.data == NULL) return;
    p->box.capacity = 65536;
    p->box.kind = kind;
    if (dr_jxl.JxlDecoderSetBoxBuffer(p->dec, p->box.data, p->box.capacity) != JXL_DEC_SUCCESS) {
        free(p->box.data);
        p->box = (box_buffer){0};
    }
}

/* A box longer than its buffer: the buffer doubles, up to MAX_BOX_BYTES (then it is dropped). */
static void grow_box(jxl_pass *p) {
    box_buffer *b = &p->box;
    if (b->kind == 0) { /* a box dropped as too large: the rest of it is read into the discard buffer */
        dr_jxl.JxlDecoderReleaseBoxBuffer(p->dec);
        dr_jxl.JxlDecoderSetBoxBuffer(p->dec, p->discard, sizeof p->discard);
        return;
    }
    size_t unused = dr_jxl.JxlDecoderReleaseBoxBuffer(p->dec);
    size_t used = b->capacity - unused;
    unsigned char *grown = b->capacity * 2 <= MAX_BOX_BYTES ? realloc(b->data, b->capacity * 2) : NULL;
    if (grown == NULL) { /* too large to keep (a Brotli bomb, say): dropped */
        free(b->data);
        *b = (box_buffer){0};
        dr_jxl.JxlDecoderSetBoxBuffer(p->dec, p->discard, sizeof p->discard);
        return;
    }
    b->data = grown;
    b->capacity *= 2;
    dr_jxl.JxlDecoderSetBoxBuffer(p->dec, b->data + used, b->capacity - used);
}

/* Whether a colour description is sRGB (or grey with sRGB's tone curve): nothing to convert. */
static int is_srgb(const JxlColorEncoding *c) {
    if (c->white_point != JXL_WHITE_POINT_D65 || c->transfer_function != JXL_TRANSFER_FUNCTION_SRGB) return 0;
    if (c->color_space == JXL_COLOR_SPACE_GRAY) return 1;
    return c->color_space == JXL_COLOR_SPACE_RGB && c->primaries == JXL_PRIMARIES_SRGB;
}

/* The profile of the decoded samples into info->icc, unless they are sRGB. */
static dr_status store_colour(jxl_pass *p) {
    JxlColorEncoding original;
    p->info->has_icc = dr_jxl.JxlDecoderGetColorAsEncodedProfile(p->dec, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) != JXL_DEC_SUCCESS;
    JxlColorEncoding data;
    if (dr_jxl.JxlDecoderGetColorAsEncodedProfile(p->dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &data) == JXL_DEC_SUCCESS && is_srgb(&data))
        return DR_OK;
    size_t size = 0;
    if (dr_jxl.JxlDecoderGetICCProfileSize(p->dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS || size == 0)
        return DR_OK; /* none libjxl can describe: the samples are taken as sRGB */
    unsigned char *profile = malloc(size);
    if (profile == NULL) return DR_OUT_OF_MEMORY;
    if (dr_jxl.JxlDecoderGetColorAsICCProfile(p->dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, profile, size) == JXL_DEC_SUCCESS) {
        free(p->info->icc);
        p->info->icc = profile;
        p->info->icc_length = size;
    } else {
        free(profile);
    }
    return DR_OK;
}

static dr_status take_basic_info(jxl_pass *p, char *message, size_t capacity) {
    if (dr_jxl.JxlDecoderGetBasicInfo(p->dec, &p->basic) != JXL_DEC_SUCCESS)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: the header cannot be read");
    dr_info *info = p->info;
    info->format = DR_FORMAT_JXL;
    if (p->basic.xsize == 0 || p->basic.ysize == 0 || p->basic.xsize > INT32_MAX || p->basic.ysize > INT32_MAX)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: the header gives no usable size");
    info->width = (int)p->basic.xsize;
    info->height = (int)p->basic.ysize;
    info->has_alpha = p->basic.alpha_bits > 0;
    p->grey = p->basic.num_color_channels == 1;
    info->channels = (p->grey ? 1 : 3) + (info->has_alpha ? 1 : 0);
    info->bit_depth = (int)p->basic.bits_per_sample;
    info->color_space = p->grey ? DR_SPACE_GRAY : DR_SPACE_RGB;
    info->orientation = p->basic.orientation >= 1 && p->basic.orientation <= 8 ? (int)p->basic.orientation : 1;
    p->have_basic = 1;
    int deep = p->basic.bits_per_sample > 8 || p->basic.exponent_bits_per_sample > 0;
    p->format = (JxlPixelFormat){.num_channels = info->has_alpha ? 4 : 3,
                                 .data_type = deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                 .endianness = JXL_NATIVE_ENDIAN, .align = 0};
    if (p->options != NULL && !dr_fits(info, p->options->max_pixels))
        return dr_too_large(info, p->options->max_pixels, message, capacity);
    return DR_OK;
}

static dr_status set_output(jxl_pass *p, char *message, size_t capacity) {
    size_t size = 0;
    if (dr_jxl.JxlDecoderImageOutBufferSize(p->dec, &p->format, &size) != JXL_DEC_SUCCESS)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: no output size for the image");
    size_t sample = p->format.data_type == JXL_TYPE_UINT16 ? 2 : 1;
    p->row_bytes = (size_t)p->info->width * p->format.num_channels * sample;
    if (size != p->row_bytes * (size_t)p->info->height)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: the frame does not match the header's size");
    p->pixels = malloc(size);
    if (p->pixels == NULL) return dr_fail(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory decoding JPEG XL");
    if (dr_jxl.JxlDecoderSetImageOutBuffer(p->dec, &p->format, p->pixels, size) != JXL_DEC_SUCCESS)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: the output buffer was refused");
    return DR_OK;
}

/* Runs the decoder over the whole file until it has what the pass wants. */
static dr_status run(jxl_pass *p, char *message, size_t capacity) {
    if (dr_jxl_load(message, capacity) == NULL) return DR_UNSUPPORTED;
    int pixels = p->options != NULL;
    JxlSignature signature = dr_jxl.JxlSignatureCheck(p->bytes, p->length);
    if (signature != JXL_SIG_CODESTREAM && signature != JXL_SIG_CONTAINER)
        return dr_fail(NULL, message, capacity, signature == JXL_SIG_NOT_ENOUGH_BYTES ? DR_TRUNCATED : DR_NOT_AN_IMAGE,
                    "not a JPEG XL file");
    int container = signature == JXL_SIG_CONTAINER;
    p->dec = dr_jxl.JxlDecoderCreate(NULL);
    if (p->dec == NULL) return dr_fail(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory opening JPEG XL");
    int events = JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | (container ? JXL_DEC_BOX : 0) | (pixels ? JXL_DEC_FULL_IMAGE : 0);
    if (dr_jxl.JxlDecoderSubscribeEvents(p->dec, events) != JXL_DEC_SUCCESS ||
        dr_jxl.JxlDecoderSetParallelRunner(p->dec, dr_jxl_run, &p->runner) != JXL_DEC_SUCCESS ||
        dr_jxl.JxlDecoderSetKeepOrientation(p->dec, JXL_TRUE) != JXL_DEC_SUCCESS ||
        dr_jxl.JxlDecoderSetUnpremultiplyAlpha(p->dec, JXL_TRUE) != JXL_DEC_SUCCESS ||
        (container && dr_jxl.JxlDecoderSetDecompressBoxes(p->dec, JXL_TRUE) != JXL_DEC_SUCCESS) ||
        dr_jxl.JxlDecoderSetInput(p->dec, p->bytes, p->length) != JXL_DEC_SUCCESS)
        return dr_fail(NULL, message, capacity, DR_UNSUPPORTED, "JPEG XL: libjxl refused the decoder's settings");
    /* The whole file is given; the input is not closed, so running out of it is told apart
     * from damage: NEED_MORE_INPUT means the file ends early. */
    for (;;) {
        if (p->options != NULL && p->options->deadline_ns != 0 && dr_monotonic_ns() > p->options->deadline_ns)
            return dr_fail(NULL, message, capacity, DR_CANCELLED, "decoding ran past the time limit");
        JxlDecoderStatus status = dr_jxl.JxlDecoderProcessInput(p->dec);
        dr_status result = DR_OK;
        switch (status) {
        case JXL_DEC_BASIC_INFO:
            result = take_basic_info(p, message, capacity);
            break;
        case JXL_DEC_COLOR_ENCODING:
            p->have_colour = 1;
            if (store_colour(p) != DR_OK) return dr_fail(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory reading a JPEG XL colour profile");
            if (!pixels && !container) return DR_OK; /* a bare codestream has no boxes */
            break;
        case JXL_DEC_BOX:
            start_box(p);
            break;
        case JXL_DEC_BOX_NEED_MORE_OUTPUT:
            grow_box(p);
            break;
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
            result = set_output(p, message, capacity);
            break;
        case JXL_DEC_FULL_IMAGE:
            p->image_done = 1;
            /* An animation's next frames would follow: the first is all darkroom reads. */
            if (p->basic.have_animation) { finish_box(p); return DR_OK; }
            break;
        case JXL_DEC_SUCCESS:
            finish_box(p);
            if (pixels && !p->image_done) return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: the file holds no image");
            return DR_OK;
        case JXL_DEC_NEED_MORE_INPUT:
            finish_box(p);
            /* Only boxes were left to read (the header pass, or boxes after the image). */
            if (p->have_colour && (!pixels || p->image_done)) return DR_OK;
            return dr_fail(NULL, message, capacity, DR_TRUNCATED, "JPEG XL data ends early (truncated file?)");
        case JXL_DEC_ERROR:
            if (atomic_load(&p->runner.expired)) return dr_fail(NULL, message, capacity, DR_CANCELLED, "decoding ran past the time limit");
            return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: corrupt or unsupported codestream (libjxl refused it)");
        default:
            break;
        }
        if (result != DR_OK) return result;
    }
}

static void pass_free(jxl_pass *p) {
    if (p->dec != NULL) {
        dr_jxl.JxlDecoderReleaseBoxBuffer(p->dec);
        dr_jxl.JxlDecoderDestroy(p->dec);
    }
    free(p->box.data);
    p->dec = NULL;
    p->box = (box_buffer){0};
}

dr_status dr_jxl_read_info(const unsigned char *bytes, size_t length, dr_info *info, char *message, size_t capacity) {
    jxl_pass p = {.bytes = bytes, .length = length, .info = info};
    dr_status status = run(&p, message, capacity);
    pass_free(&p);
    if (status == DR_OK && !p.have_colour) status = dr_fail(NULL, message, capacity, DR_TRUNCATED, "JPEG XL data ends early (truncated file?)");
    return status;
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    unsigned char *pixels;
    size_t row_bytes, pixel_bytes;
    int next_row, crop_x, crop_y;
} jxl_reader;

static void jxl_reader_close(dr_reader *base) {
    jxl_reader *r = (jxl_reader *)base;
    free(r->pixels);
    dr_color_converter_free(r->base.color);
    free(r);
}

static dr_status jxl_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count, char *message, size_t capacity) {
    jxl_reader *r = (jxl_reader *)base;
    if (count < 0 || r->next_row + count > r->base.height)
        return dr_fail(NULL, message, capacity, DR_CORRUPT, "JPEG XL: more rows asked for than the image has");
    size_t offset = (size_t)r->crop_x * r->pixel_bytes, copy = (size_t)r->base.width * r->pixel_bytes;
    for (int i = 0; i < count; i++, r->next_row++) {
        unsigned char *target = rows + stride * (size_t)i;
        memcpy(target, r->pixels + r->row_bytes * (size_t)(r->crop_y + r->next_row) + offset, copy);
        if (r->base.color != NULL) dr_color_converter_rows(r->base.color, target, (size_t)r->base.width);
    }
    return DR_OK;
}

dr_status dr_jxl_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **out, char *message, size_t capacity) {
    jxl_pass p = {.bytes = bytes, .length = length, .info = info, .options = options};
    p.runner.deadline_ns = options->deadline_ns;
    dr_status status = run(&p, message, capacity);
    pass_free(&p);
    jxl_reader *r = status == DR_OK ? calloc(1, sizeof *r) : NULL;
    if (status == DR_OK && r == NULL) status = dr_fail(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory decoding JPEG XL");
    if (status != DR_OK) {
        free(p.pixels);
        return status;
    }
    r->pixels = p.pixels;
    r->row_bytes = p.row_bytes;
    r->base.format = DR_FORMAT_JXL;
    r->base.read_rows = jxl_read_rows;
    r->base.close = jxl_reader_close;
    r->base.bytes = bytes;
    r->base.channels = (int)p.format.num_channels;
    r->base.bytes_per_sample = p.format.data_type == JXL_TYPE_UINT16 ? 2 : 1;
    r->pixel_bytes = (size_t)r->base.channels * (size_t)r->base.bytes_per_sample;
    dr_reader_window(&r->base, options, info, &r->crop_x, &r->crop_y);
    r->base.color = dr_reader_color_setup(&r->base, info, options, p.grey ? DR_SPACE_GRAY : DR_SPACE_RGB, r->base.channels, 0);
    memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}
