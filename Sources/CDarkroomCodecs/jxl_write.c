/*
 * JPEG XL output through libjxl. libjxl 0.7 takes a frame whole (it has no chunked input), so
 * the rows are kept as they come and encoded at finish: they are handed to libjxl, which makes
 * its own copy, and freed before it encodes, so the file's peak holds libjxl's working image and
 * not the rows as well. The metadata goes into Exif and xml boxes of the container, the ICC
 * profile into the codestream (an sRGB one as JPEG XL's compact sRGB description instead). The
 * orientation of the rows is the codestream's.
 *
 * A JPEG can also be transcoded without decoding it (dr_jxl_transcode_jpeg): libjxl recodes its
 * DCT coefficients and keeps what it needs (jbrd box) to give back the original file byte for
 * byte. Both run libjxl's parallel stages on the compute slots (jxl_runner.c).
 */
#include "jxl_library.h"
#include "jxl_runner.h"

#include <stdlib.h>
#include <string.h>

#include <jxl/encode.h>

typedef struct {
    dr_writer base; /* first: the generic writer */
    dr_jxl_write_options options;
    int width, height;
    size_t row_bytes;
    unsigned char *rows; /* the whole frame, until it is handed to libjxl */
    int written;
    dr_status status;
    dr_metadata metadata; /* copies, owned */
    unsigned char *icc;
    size_t icc_length;
} jxl_writer;

static dr_status failed(jxl_writer *w, char *message, size_t capacity, dr_status status, const char *text) {
    if (w != NULL) w->status = status;
    dr_set_message(message, capacity, "%s", text);
    return status;
}

static void jxl_writer_close(dr_writer *base) {
    jxl_writer *w = (jxl_writer *)base;
    free(w->rows);
    dr_metadata_free(&w->metadata);
    free(w->icc);
    free(w);
}

static dr_status jxl_set_icc(dr_writer *base, const unsigned char *profile, size_t length, char *message, size_t capacity) {
    jxl_writer *w = (jxl_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written > 0) return failed(w, message, capacity, DR_ENCODE_FAILED, "JPEG XL: the ICC profile must come before the rows");
    free(w->icc);
    w->icc = NULL;
    w->icc_length = 0;
    dr_metadata_keep(&w->icc, &w->icc_length, profile, length);
    return DR_OK;
}

static dr_status jxl_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count, char *message,
                                size_t capacity) {
    jxl_writer *w = (jxl_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (count < 0 || w->written + count > w->height) return failed(w, message, capacity, DR_ENCODE_FAILED, "JPEG XL: more rows than the image has");
    for (int i = 0; i < count; i++)
        memcpy(w->rows + w->row_bytes * (size_t)(w->written + i), rows + stride * (size_t)i, w->row_bytes);
    w->written += count;
    return DR_OK;
}

/* Drains the encoder's output into `out`, growing it as needed. */
static dr_status collect_output(JxlEncoder *enc, dr_buffer *out, char *message, size_t capacity) {
    if (out->capacity - out->length < 65536) {
        size_t grown = out->capacity ? out->capacity * 2 : 1 << 20;
        unsigned char *data = realloc(out->data, grown);
        if (data == NULL) return failed(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding JPEG XL");
        out->data = data;
        out->capacity = grown;
    }
    uint8_t *next = out->data + out->length;
    size_t available = out->capacity - out->length;
    for (;;) {
        JxlEncoderStatus status = dr_jxl.JxlEncoderProcessOutput(enc, &next, &available);
        out->length = (size_t)(next - out->data);
        if (status == JXL_ENC_SUCCESS) return DR_OK;
        if (status != JXL_ENC_NEED_MORE_OUTPUT) {
            dr_set_message(message, capacity, "JPEG XL: libjxl could not encode the image (error %d)", (int)dr_jxl.JxlEncoderGetError(enc));
            return DR_ENCODE_FAILED;
        }
        unsigned char *data = realloc(out->data, out->capacity * 2);
        if (data == NULL) return failed(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding JPEG XL");
        out->data = data;
        out->capacity *= 2;
        next = out->data + out->length;
        available = out->capacity - out->length;
    }
}

/* The Exif (with the 4-byte offset of its TIFF header, 0) and xml boxes. */
static int add_boxes(JxlEncoder *enc, const dr_metadata *metadata) {
    if (metadata->exif_length > 0) {
        unsigned char *box = malloc(metadata->exif_length + 4);
        if (box == NULL) return 0;
        memset(box, 0, 4);
        memcpy(box + 4, metadata->exif, metadata->exif_length);
        JxlEncoderStatus status = dr_jxl.JxlEncoderAddBox(enc, "Exif", box, metadata->exif_length + 4, JXL_FALSE);
        free(box);
        if (status != JXL_ENC_SUCCESS) return 0;
    }
    if (metadata->xmp_length > 0 && dr_jxl.JxlEncoderAddBox(enc, "xml ", metadata->xmp, metadata->xmp_length, JXL_FALSE) != JXL_ENC_SUCCESS)
        return 0;
    return 1;
}

/* The image's colour: its profile, or JPEG XL's own sRGB description for an sRGB one (or none). */
static int set_colour(JxlEncoder *enc, const jxl_writer *w) {
    if (w->icc != NULL) {
        dr_icc_summary summary;
        dr_icc_inspect(w->icc, w->icc_length, DR_INTENT_RELATIVE, &summary);
        if (!(summary.usable && summary.is_srgb)) return dr_jxl.JxlEncoderSetICCProfile(enc, w->icc, w->icc_length) == JXL_ENC_SUCCESS;
    }
    JxlColorEncoding srgb;
    dr_jxl.JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE);
    return dr_jxl.JxlEncoderSetColorEncoding(enc, &srgb) == JXL_ENC_SUCCESS;
}

static dr_status jxl_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    jxl_writer *w = (jxl_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written != w->height || w->rows == NULL)
        return failed(w, message, capacity, DR_ENCODE_FAILED, "JPEG XL: the image ended before its last row");
    const dr_jxl_write_options *o = &w->options;
    dr_jxl_runner runner = {0};
    JxlEncoder *enc = dr_jxl.JxlEncoderCreate(NULL);
    if (enc == NULL) return failed(w, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding JPEG XL");
    int boxes = w->metadata.exif_length > 0 || w->metadata.xmp_length > 0;
    JxlBasicInfo info;
    dr_jxl.JxlEncoderInitBasicInfo(&info);
    info.xsize = (uint32_t)w->width;
    info.ysize = (uint32_t)w->height;
    info.bits_per_sample = (uint32_t)o->bit_depth;
    info.num_color_channels = 3;
    info.alpha_bits = o->channels == 4 ? (uint32_t)o->bit_depth : 0;
    info.num_extra_channels = o->channels == 4 ? 1 : 0;
    info.uses_original_profile = o->lossless ? JXL_TRUE : JXL_FALSE;
    info.orientation = o->orientation >= 1 && o->orientation <= 8 ? (JxlOrientation)o->orientation : JXL_ORIENT_IDENTITY;
    JxlPixelFormat format = {.num_channels = (uint32_t)o->channels,
                             .data_type = o->bit_depth == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                             .endianness = JXL_NATIVE_ENDIAN, .align = 0};
    JxlEncoderFrameSettings *settings = NULL;
    const char *problem = NULL;
    if (dr_jxl.JxlEncoderSetParallelRunner(enc, dr_jxl_run, &runner) != JXL_ENC_SUCCESS) problem = "the thread runner was refused";
    else if (boxes && (dr_jxl.JxlEncoderUseContainer(enc, JXL_TRUE) != JXL_ENC_SUCCESS || dr_jxl.JxlEncoderUseBoxes(enc) != JXL_ENC_SUCCESS))
        problem = "the container was refused";
    else if (dr_jxl.JxlEncoderSetBasicInfo(enc, &info) != JXL_ENC_SUCCESS) problem = "the image's size or depth was refused";
    else if (!set_colour(enc, w)) problem = "the ICC profile was refused";
    else if (boxes && !add_boxes(enc, &w->metadata)) problem = "the metadata boxes were refused";
    else if ((settings = dr_jxl.JxlEncoderFrameSettingsCreate(enc, NULL)) == NULL) problem = "out of memory";
    else if (dr_jxl.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, o->effort) != JXL_ENC_SUCCESS)
        problem = "the effort was refused";
    else if (o->lossless ? dr_jxl.JxlEncoderSetFrameLossless(settings, JXL_TRUE) != JXL_ENC_SUCCESS
                         : dr_jxl.JxlEncoderSetFrameDistance(settings, o->distance) != JXL_ENC_SUCCESS)
        problem = "the distance was refused";
    if (problem == NULL && boxes) dr_jxl.JxlEncoderCloseBoxes(enc);
    if (problem == NULL &&
        dr_jxl.JxlEncoderAddImageFrame(settings, &format, w->rows, w->row_bytes * (size_t)w->height) != JXL_ENC_SUCCESS)
        problem = "the image was refused";
    /* libjxl holds its own copy now. */
    free(w->rows);
    w->rows = NULL;
    if (problem != NULL) {
        dr_set_message(message, capacity, "JPEG XL: %s (libjxl error %d)", problem, (int)dr_jxl.JxlEncoderGetError(enc));
        dr_jxl.JxlEncoderDestroy(enc);
        w->status = DR_ENCODE_FAILED;
        return DR_ENCODE_FAILED;
    }
    dr_jxl.JxlEncoderCloseInput(enc);
    dr_status status = collect_output(enc, out, message, capacity);
    dr_jxl.JxlEncoderDestroy(enc);
    w->status = status;
    return status;
}

dr_status dr_jxl_writer_open(int width, int height, const dr_jxl_write_options *options, const dr_metadata *metadata,
                             dr_writer **out, char *message, size_t capacity) {
    *out = NULL;
    if (dr_jxl_load(message, capacity) == NULL) return DR_UNSUPPORTED;
    if (width <= 0 || height <= 0) return failed(NULL, message, capacity, DR_ENCODE_FAILED, "JPEG XL: an empty image");
    if ((options->channels != 3 && options->channels != 4) || (options->bit_depth != 8 && options->bit_depth != 16))
        return failed(NULL, message, capacity, DR_ENCODE_FAILED, "JPEG XL: rows must be 8- or 16-bit RGB or RGBA");
    jxl_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return failed(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding JPEG XL");
    w->options = *options;
    if (w->options.effort < 1) w->options.effort = 1;
    if (w->options.effort > 9) w->options.effort = 9;
    if (!(w->options.distance >= 0.1f)) w->options.distance = 0.1f;
    if (w->options.distance > 15) w->options.distance = 15;
    w->width = width;
    w->height = height;
    w->row_bytes = (size_t)width * (size_t)options->channels * (options->bit_depth == 16 ? 2 : 1);
    w->rows = malloc(w->row_bytes * (size_t)height);
    if (w->rows == NULL) {
        free(w);
        return failed(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory: the JPEG XL encoder keeps the whole image");
    }
    w->base.format = DR_FORMAT_JXL;
    w->base.set_icc = jxl_set_icc;
    w->base.write_rows = jxl_write_rows;
    w->base.finish = jxl_finish;
    w->base.close = jxl_writer_close;
    if (metadata != NULL) {
        dr_metadata_keep(&w->metadata.exif, &w->metadata.exif_length, metadata->exif, metadata->exif_length);
        dr_metadata_keep(&w->metadata.xmp, &w->metadata.xmp_length, metadata->xmp, metadata->xmp_length);
    }
    *out = &w->base;
    return DR_OK;
}

dr_status dr_jxl_transcode_jpeg(const unsigned char *jpeg, size_t length, int effort, dr_buffer *out, char *message,
                                size_t capacity) {
    if (dr_jxl_load(message, capacity) == NULL) return DR_UNSUPPORTED;
    dr_jxl_runner runner = {0};
    JxlEncoder *enc = dr_jxl.JxlEncoderCreate(NULL);
    if (enc == NULL) return failed(NULL, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding JPEG XL");
    JxlEncoderFrameSettings *settings = NULL;
    dr_status status = DR_OK;
    if (dr_jxl.JxlEncoderSetParallelRunner(enc, dr_jxl_run, &runner) != JXL_ENC_SUCCESS ||
        dr_jxl.JxlEncoderUseContainer(enc, JXL_TRUE) != JXL_ENC_SUCCESS ||
        dr_jxl.JxlEncoderStoreJPEGMetadata(enc, JXL_TRUE) != JXL_ENC_SUCCESS ||
        (settings = dr_jxl.JxlEncoderFrameSettingsCreate(enc, NULL)) == NULL ||
        dr_jxl.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort < 1 ? 1 : effort > 9 ? 9 : effort) != JXL_ENC_SUCCESS) {
        status = failed(NULL, message, capacity, DR_ENCODE_FAILED, "JPEG XL: libjxl refused the transcoder's settings");
    } else if (dr_jxl.JxlEncoderAddJPEGFrame(settings, jpeg, length) != JXL_ENC_SUCCESS) {
        /* Arithmetic coding, CMYK, 12-bit samples, or damage libjpeg forgives. */
        dr_set_message(message, capacity, "JPEG XL: libjxl cannot keep this JPEG's coded data (libjxl error %d: arithmetic coding, "
                       "CMYK and 12-bit JPEGs cannot be, nor damaged ones); write lossless_jpeg: false to re-encode its pixels",
                       (int)dr_jxl.JxlEncoderGetError(enc));
        status = DR_UNSUPPORTED;
    } else {
        dr_jxl.JxlEncoderCloseInput(enc);
        status = collect_output(enc, out, message, capacity);
    }
    dr_jxl.JxlEncoderDestroy(enc);
    if (status != DR_OK) dr_buffer_free(out);
    return status;
}
