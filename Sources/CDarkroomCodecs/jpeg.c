/*
 * JPEG through libjpeg(-turbo), by scanlines: a reader that decodes rows on demand (with DCT
 * shrink, crop and skip on load) and a writer that encodes rows as they come.
 *
 * libjpeg's default error_exit prints and calls exit(); here it longjmps back to the shim
 * function that armed the jmp_buf on entry. Warnings that mean the pixels are wrong (premature
 * end of file, bad Huffman codes, ...) are promoted to errors: a silently half-grey image is
 * worse than a failure. A few that do not touch the pixels are forgiven and reported.
 */
#include "internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr pub; /* first, so a j_common_ptr's err can be cast back */
    jmp_buf jump;
    dr_status status;
    int encoding;
    char *message;
    size_t capacity;
    char *warning;             /* where a forgiven warning is recorded (160 bytes), or NULL */
} error_context;

static dr_status classify_error(int code, int encoding) {
    if (code == JERR_OUT_OF_MEMORY) return DR_OUT_OF_MEMORY;
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
static void fail_with(j_common_ptr cinfo, dr_status status, const char *text) {
    error_context *ctx = (error_context *)cinfo->err;
    if (ctx->status == DR_OK) {
        ctx->status = status;
        if (text != NULL) {
            dr_set_message(ctx->message, ctx->capacity, "%s", text);
        } else if (status == DR_TRUNCATED) {
            dr_set_message(ctx->message, ctx->capacity, "JPEG data ends early (truncated file?)");
        } else {
            char buffer[JMSG_LENGTH_MAX];
            (*cinfo->err->format_message)(cinfo, buffer);
            dr_set_message(ctx->message, ctx->capacity, "JPEG: %s", buffer);
        }
    }
    longjmp(ctx->jump, 1);
}

static void on_error_exit(j_common_ptr cinfo) {
    error_context *ctx = (error_context *)cinfo->err;
    fail_with(cinfo, classify_error(cinfo->err->msg_code, ctx->encoding), NULL);
}

/* Level -1 is a warning; higher levels are trace messages, never printed. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    error_context *ctx = (error_context *)cinfo->err;
    if (level >= 0 || ctx->encoding) return;
    switch (cinfo->err->msg_code) {
    /* Metadata oddities, and stray bytes between segments (which libvips and ImageMagick
     * also skip): the pixels are still right. The first one is reported. */
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
        cinfo->err->num_warnings++;
        if (ctx->warning != NULL && ctx->warning[0] == 0) {
            char buffer[JMSG_LENGTH_MAX];
            (*cinfo->err->format_message)(cinfo, buffer);
            snprintf(ctx->warning, 160, "JPEG: %s", buffer);
        }
        return;
    case JWRN_JPEG_EOF:
        fail_with(cinfo, DR_TRUNCATED, NULL);
        return;
    default:
        fail_with(cinfo, DR_CORRUPT, NULL);
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

/* Points the error context at this call's message buffer (each call brings its own). */
static void rearm(error_context *ctx, char *message, size_t capacity) {
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
    /* The profile's chunks joined (libjpeg-turbo checks their numbering; a bad sequence is a
     * forgiven JWRN_BOGUS_ICC and no profile). */
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (info->has_icc && info->icc == NULL && jpeg_read_icc_profile(cinfo, &icc, &icc_length)) {
        info->icc = icc;
        info->icc_length = icc_length;
    } else {
        free(icc);
    }
    if (info->metadata != NULL) dr_jpeg_collect_metadata(cinfo->marker_list, info->metadata);
}

/* A source manager reading the file in place through its descriptor, 64 KB at a time (pread, at
 * no particular offset, as TIFF inputs are read), so the file is never held whole. Its end is
 * treated as jpeg_mem_src treats the end of the bytes: a warning (a truncation here) and a
 * fake EOI. */
typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    uint64_t length, offset; /* the file's length; where the next read starts */
    JOCTET buffer[65536];
} file_source;

static void file_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean file_fill(j_decompress_ptr cinfo) {
    file_source *f = (file_source *)cinfo->src;
    size_t want = f->offset >= f->length ? 0
                  : f->length - f->offset < sizeof f->buffer ? (size_t)(f->length - f->offset) : sizeof f->buffer;
    ssize_t got = 0;
    if (want > 0) {
        do got = pread(f->fd, f->buffer, want, (off_t)f->offset); while (got < 0 && errno == EINTR);
    }
    if (got <= 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        f->buffer[0] = (JOCTET)0xFF;
        f->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    } else {
        f->offset += (uint64_t)got;
    }
    f->pub.next_input_byte = f->buffer;
    f->pub.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void file_skip(j_decompress_ptr cinfo, long count) {
    file_source *f = (file_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= f->pub.bytes_in_buffer) {
        f->pub.next_input_byte += count;
        f->pub.bytes_in_buffer -= (size_t)count;
        return;
    }
    f->offset += (uint64_t)count - f->pub.bytes_in_buffer;
    f->pub.bytes_in_buffer = 0;
}

static void file_term(j_decompress_ptr cinfo) { (void)cinfo; }

/* A file source over `fd` (`length` bytes); NULL when memory runs out. */
static file_source *file_source_make(int fd, uint64_t length) {
    file_source *f = calloc(1, sizeof *f);
    if (f == NULL) return NULL;
    f->fd = fd;
    f->length = length;
    f->pub.init_source = file_init;
    f->pub.fill_input_buffer = file_fill;
    f->pub.skip_input_data = file_skip;
    f->pub.resync_to_restart = jpeg_resync_to_restart;
    f->pub.term_source = file_term;
    return f;
}

/* Starts a decompression reading `file` when given, else the `length` bytes at `bytes`. */
static void begin(j_decompress_ptr cinfo, const unsigned char *bytes, size_t length, file_source *file) {
    jpeg_create_decompress(cinfo);
    if (file != NULL) cinfo->src = &file->pub;
    else jpeg_mem_src(cinfo, bytes, (unsigned long)length);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 13, 0xFFFF); /* Photoshop IRB: IPTC */
    (void)jpeg_read_header(cinfo, TRUE);
}

/* The header from memory, or from `file` when given (which this frees). */
static dr_status read_info(const unsigned char *bytes, size_t length, file_source *file, dr_info *info,
                           char *message, size_t capacity) {
    struct jpeg_decompress_struct cinfo;
    error_context errors;
    install_errors(&errors, 0, message, capacity);
    errors.warning = info->warning;
    cinfo.err = &errors.pub;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(file);
        return errors.status;
    }
    begin(&cinfo, bytes, length, file);
    describe(&cinfo, info);
    jpeg_destroy_decompress(&cinfo);
    free(file);
    return DR_OK;
}

dr_status dr_jpeg_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity) {
    return read_info(bytes, length, NULL, info, message, capacity);
}

dr_status dr_jpeg_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity) {
    file_source *file = file_source_make(fd, length);
    if (file == NULL) return DR_OUT_OF_MEMORY;
    return read_info(NULL, 0, file, info, message, capacity);
}

/* ---- reader ---- */

/* Counts scans and watches the clock while libjpeg consumes input (libjpeg-turbo's advice
 * against progressive "scan bombs": thousands of tiny scans, each a pass over the image). */
typedef struct {
    struct jpeg_progress_mgr pub;
    int max_scans;
    uint64_t deadline_ns;
    unsigned calls;
} progress_context;

typedef struct {
    dr_reader base; /* first: the generic reader */
    struct jpeg_decompress_struct cinfo;
    error_context errors;
    progress_context progress;
    int cmyk;
    int skip_rows;   /* rows above the crop, skipped before the first delivered row */
    int x_offset;    /* first delivered column inside the (iMCU-aligned) decoded row */
    int components;  /* samples per decoded pixel: 3 (RGB) or 4 (CMYK) */
    unsigned char *scratch; /* one decoded row, when it cannot go straight to the caller */
    const unsigned char *source_base; /* where libjpeg's source pointers point into */
    file_source *file;      /* reading the file in place, or NULL (from memory) */
} jpeg_reader;

static void on_progress(j_common_ptr cinfo) {
    progress_context *p = (progress_context *)cinfo->progress;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > p->max_scans) {
        char text[128];
        snprintf(text, sizeof text, "JPEG has more than %d progressive scans (a decompression bomb?)", p->max_scans);
        fail_with(cinfo, DR_TOO_LARGE, text);
    }
    if (p->deadline_ns != 0 && (++p->calls & 15) == 0 && dr_monotonic_ns() > p->deadline_ns)
        fail_with(cinfo, DR_CANCELLED, "decoding ran past the time limit");
}

static void jpeg_reader_free(jpeg_reader *r) {
    jpeg_destroy_decompress(&r->cinfo);
    dr_color_converter_free(r->base.color);
    free(r->scratch);
    free(r->file);
    free(r);
}

/* A reader over memory, or over `file` when given (which the reader then owns). */
static dr_status reader_open(const unsigned char *bytes, size_t length, file_source *file,
                             const dr_read_options *options, dr_info *info, dr_reader **out,
                             char *message, size_t capacity) {
    jpeg_reader *r = calloc(1, sizeof *r);
    if (r == NULL) { free(file); return DR_OUT_OF_MEMORY; }
    r->file = file;
    install_errors(&r->errors, 0, message, capacity);
    r->errors.warning = r->base.warning;
    r->cinfo.err = &r->errors.pub;
    if (setjmp(r->errors.jump)) {
        dr_status status = r->errors.status;
        memcpy(info->warning, r->base.warning, sizeof info->warning);
        jpeg_reader_free(r);
        return status;
    }
    r->source_base = bytes;
    r->base.bytes = bytes;
    begin(&r->cinfo, bytes, length, file);
    describe(&r->cinfo, info);
    if (!dr_fits(info, options->max_pixels)) {
        char text[160];
        snprintf(text, sizeof text, "image is %d×%d pixels, over the limit of %llu pixels",
                 info->width, info->height, (unsigned long long)options->max_pixels);
        fail_with((j_common_ptr)&r->cinfo, DR_TOO_LARGE, text);
    }
    switch (r->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB: r->cinfo.out_color_space = JCS_EXT_RGB; r->components = 3; break;
    case JCS_CMYK:
    case JCS_YCCK: r->cinfo.out_color_space = JCS_CMYK; r->components = 4; r->cmyk = 1; break;
    default: {
        char text[160];
        snprintf(text, sizeof text, "JPEG with %d components in an unknown colour space is not supported",
                 r->cinfo.num_components);
        fail_with((j_common_ptr)&r->cinfo, DR_UNSUPPORTED, text);
    }
    }
    int shrink = options->shrink;
    r->cinfo.scale_num = 1;
    r->cinfo.scale_denom = (shrink == 2 || shrink == 4 || shrink == 8) ? (unsigned)shrink : 1;
    r->progress.pub.progress_monitor = on_progress;
    r->progress.max_scans = options->max_scans > 0 ? options->max_scans : DR_DEFAULT_MAX_SCANS;
    r->progress.deadline_ns = options->deadline_ns;
    r->cinfo.progress = &r->progress.pub;
    jpeg_start_decompress(&r->cinfo);
    if ((int)r->cinfo.output_components != r->components)
        fail_with((j_common_ptr)&r->cinfo, DR_UNSUPPORTED, "JPEG: unexpected output layout");
    int x, y, w, h;
    dr_clamp_crop(options, (int)r->cinfo.output_width, (int)r->cinfo.output_height, &x, &y, &w, &h);
    if (w < (int)r->cinfo.output_width) {
        /* libjpeg widens the window to whole iMCUs on the left; the extra columns are dropped
         * on copy. One more iMCU on each side keeps the crop's edge columns exactly as a whole
         * decode gives them: chroma upsampling reads the neighbouring samples, which a window
         * ending at the crop would replace by its own edge. */
        int imcu = r->cinfo.max_h_samp_factor * r->cinfo.min_DCT_scaled_size;
        int left = x - imcu < 0 ? 0 : x - imcu;
        int right = x + w + imcu > (int)r->cinfo.output_width ? (int)r->cinfo.output_width : x + w + imcu;
        JDIMENSION xoffset = (JDIMENSION)left, width = (JDIMENSION)(right - left);
        jpeg_crop_scanline(&r->cinfo, &xoffset, &width);
        r->x_offset = x - (int)xoffset;
    }
    r->skip_rows = y;
    r->base.format = DR_FORMAT_JPEG;
    r->base.read_rows = dr_jpeg_read_rows;
    r->base.close = dr_jpeg_reader_close;
    r->base.width = w;
    r->base.height = h;
    r->base.channels = 3;
    r->base.bytes_per_sample = 1;
    int space = r->cmyk ? DR_SPACE_CMYK : r->cinfo.jpeg_color_space == JCS_GRAYSCALE ? DR_SPACE_GRAY : DR_SPACE_RGB;
    r->base.color = dr_reader_color_setup(&r->base, info, options, space, 3, r->cinfo.saw_Adobe_marker);
    if (r->cmyk || r->x_offset != 0 || (int)r->cinfo.output_width != w) {
        r->scratch = malloc((size_t)r->cinfo.output_width * (size_t)r->components);
        if (r->scratch == NULL) fail_with((j_common_ptr)&r->cinfo, DR_OUT_OF_MEMORY, "out of memory for a JPEG row");
    }
    memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}

dr_status dr_jpeg_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **out, char *message, size_t capacity) {
    return reader_open(bytes, length, NULL, options, info, out, message, capacity);
}

dr_status dr_jpeg_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                   dr_reader **out, char *message, size_t capacity) {
    file_source *file = file_source_make(fd, length);
    if (file == NULL) return DR_OUT_OF_MEMORY;
    return reader_open(NULL, 0, file, options, info, out, message, capacity);
}

dr_status dr_jpeg_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count,
                            char *message, size_t capacity) {
    jpeg_reader *r = (jpeg_reader *)base;
    if (r->errors.status != DR_OK) {
        dr_set_message(message, capacity, "the JPEG reader failed earlier");
        return r->errors.status;
    }
    rearm(&r->errors, message, capacity);
    if (r->source_base != r->base.bytes) {
        /* The caller's bytes moved: point libjpeg's read position at the same offset in them. */
        struct jpeg_source_mgr *src = r->cinfo.src;
        src->next_input_byte = r->base.bytes + (src->next_input_byte - r->source_base);
        r->source_base = r->base.bytes;
    }
    if (setjmp(r->errors.jump)) return r->errors.status;
    if (r->skip_rows > 0) {
        JDIMENSION want = (JDIMENSION)r->skip_rows;
        JDIMENSION skipped = jpeg_skip_scanlines(&r->cinfo, want);
        if (skipped != want) fail_with((j_common_ptr)&r->cinfo, DR_TRUNCATED, NULL);
        r->skip_rows = 0;
    }
    for (int i = 0; i < count; i++) {
        unsigned char *target = rows + stride * (size_t)i;
        JSAMPROW row = r->scratch != NULL ? r->scratch : target;
        if (r->cinfo.output_scanline >= r->cinfo.output_height ||
            jpeg_read_scanlines(&r->cinfo, &row, 1) != 1)
            fail_with((j_common_ptr)&r->cinfo, DR_TRUNCATED, NULL);
        if (r->cmyk) {
            const unsigned char *cmyk = r->scratch + 4 * (size_t)r->x_offset;
            if (r->base.color != NULL)
                dr_color_converter_cmyk(r->base.color, cmyk, target, (size_t)r->base.width);
            else
                dr_cmyk_to_rgb(cmyk, target, r->base.width, r->cinfo.saw_Adobe_marker);
            continue;
        }
        if (r->scratch != NULL)
            memcpy(target, r->scratch + 3 * (size_t)r->x_offset, 3 * (size_t)r->base.width);
        if (r->base.color != NULL) dr_color_converter_rows(r->base.color, target, (size_t)r->base.width);
    }
    return DR_OK;
}

void dr_jpeg_reader_close(dr_reader *base) { jpeg_reader_free((jpeg_reader *)base); }

/* ---- writer ---- */

/* A destination manager that hands a fixed staging block to the writer's sink (memory, or
 * the output's file) each time libjpeg fills it. */
typedef struct {
    struct jpeg_destination_mgr pub;
    dr_sink *sink;
    JOCTET block[65536];
} sink_destination;

static void dest_init(j_compress_ptr cinfo) {
    sink_destination *d = (sink_destination *)cinfo->dest;
    d->pub.next_output_byte = d->block;
    d->pub.free_in_buffer = sizeof d->block;
}

static void dest_put(j_compress_ptr cinfo, size_t n) {
    sink_destination *d = (sink_destination *)cinfo->dest;
    char reason[160] = "";
    dr_status status = dr_sink_put(d->sink, d->block, n, reason, sizeof reason);
    if (status != DR_OK) fail_with((j_common_ptr)cinfo, status, reason);
}

static boolean dest_empty(j_compress_ptr cinfo) {
    sink_destination *d = (sink_destination *)cinfo->dest;
    dest_put(cinfo, sizeof d->block);
    d->pub.next_output_byte = d->block;
    d->pub.free_in_buffer = sizeof d->block;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    sink_destination *d = (sink_destination *)cinfo->dest;
    dest_put(cinfo, sizeof d->block - d->pub.free_in_buffer);
}

typedef struct {
    dr_writer base; /* first: the generic writer */
    struct jpeg_compress_struct cinfo;
    error_context errors;
    sink_destination dest;
    dr_buffer out;
} jpeg_writer;

static void jpeg_writer_free(jpeg_writer *w) {
    jpeg_destroy_compress(&w->cinfo);
    dr_buffer_free(&w->out);
    free(w);
}

dr_status dr_jpeg_writer_open(int width, int height, const dr_jpeg_write_options *options,
                              const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    jpeg_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    install_errors(&w->errors, 1, message, capacity);
    w->cinfo.err = &w->errors.pub;
    if (setjmp(w->errors.jump)) {
        dr_status status = w->errors.status;
        jpeg_writer_free(w);
        return status;
    }
    jpeg_create_compress(&w->cinfo);
    w->base.format = DR_FORMAT_JPEG;
    w->base.set_icc = dr_jpeg_writer_set_icc;
    w->base.write_rows = dr_jpeg_write_rows;
    w->base.finish = dr_jpeg_writer_finish;
    w->base.close = dr_jpeg_writer_close;
    dr_sink_init(&w->base.sink, &w->out, options->to_file, options->fd);
    w->dest.sink = &w->base.sink;
    w->dest.pub.init_destination = dest_init;
    w->dest.pub.empty_output_buffer = dest_empty;
    w->dest.pub.term_destination = dest_term;
    w->cinfo.dest = &w->dest.pub;
    w->cinfo.image_width = (JDIMENSION)width;
    w->cinfo.image_height = (JDIMENSION)height;
    int grey = options->channels == 1;
    w->cinfo.input_components = grey ? 1 : 3;
    w->cinfo.in_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&w->cinfo); /* grey: one component; RGB: YCbCr with 2×2 luma sampling (4:2:0) */
    int quality = options->quality;
    jpeg_set_quality(&w->cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    if (!grey && options->chroma_444) {
        /* Luma at the chroma's resolution: every component sampled 1×1. */
        w->cinfo.comp_info[0].h_samp_factor = 1;
        w->cinfo.comp_info[0].v_samp_factor = 1;
    }
    w->cinfo.optimize_coding = options->optimize ? TRUE : FALSE;
    if (options->progressive) jpeg_simple_progression(&w->cinfo);
    jpeg_start_compress(&w->cinfo, TRUE);
    if (metadata != NULL) dr_jpeg_write_metadata(&w->cinfo, metadata);
    *out = &w->base;
    return DR_OK;
}

dr_status dr_jpeg_writer_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                                 char *message, size_t capacity) {
    jpeg_writer *w = (jpeg_writer *)base;
    if (w->errors.status != DR_OK) return w->errors.status;
    rearm(&w->errors, message, capacity);
    if (setjmp(w->errors.jump)) return w->errors.status;
    if (w->cinfo.next_scanline != 0)
        fail_with((j_common_ptr)&w->cinfo, DR_ENCODE_FAILED, "JPEG: the ICC profile must come before the rows");
    /* Split into APP2 chunks of at most 65519 bytes by libjpeg-turbo. */
    jpeg_write_icc_profile(&w->cinfo, profile, (unsigned int)length);
    return DR_OK;
}

dr_status dr_jpeg_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                             char *message, size_t capacity) {
    jpeg_writer *w = (jpeg_writer *)base;
    if (w->errors.status != DR_OK) return w->errors.status;
    rearm(&w->errors, message, capacity);
    if (setjmp(w->errors.jump)) return w->errors.status;
    for (int i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(rows + stride * (size_t)i);
        jpeg_write_scanlines(&w->cinfo, &row, 1);
    }
    return DR_OK;
}

dr_status dr_jpeg_writer_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    jpeg_writer *w = (jpeg_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->errors.status != DR_OK) return w->errors.status;
    rearm(&w->errors, message, capacity);
    if (setjmp(w->errors.jump)) return w->errors.status;
    if (w->cinfo.next_scanline < w->cinfo.image_height) {
        dr_set_message(message, capacity, "JPEG: %u of %u rows were written",
                       w->cinfo.next_scanline, w->cinfo.image_height);
        w->errors.status = DR_ENCODE_FAILED;
        return DR_ENCODE_FAILED;
    }
    jpeg_finish_compress(&w->cinfo);
    *out = w->out;
    memset(&w->out, 0, sizeof w->out);
    return DR_OK;
}

void dr_jpeg_writer_close(dr_writer *base) { jpeg_writer_free((jpeg_writer *)base); }
