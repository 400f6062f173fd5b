/*
 * 10-bit AVIF output through libavif and its libaom encoder. libheif 1.15 with libaom 3.6
 * (Debian 12) aborts on every 10-bit encode (strukturag/libheif#788); libavif 0.11 drives the
 * same libaom with a configuration that encodes 10-bit fine, so 10-bit goes this way while 8-bit
 * stays with libheif (avif_write.c). libaom is chosen explicitly: libavif's SVT-AV1 path crashes
 * on 10-bit here and prints to stdout, and rav1e is slower.
 *
 * libavif is opened on first use (avif_library.c), so processes that never write 10-bit AVIF
 * do not map it. Rows come as 16-bit samples (host order), are kept whole (AV1 encodes a whole image) and are
 * turned into 10-bit YUV at finish. Quality, speed, chroma and alpha are set as libheif's aom
 * plugin sets them for the 8-bit path, so the two depths look alike at one quality.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avif_library.h"

typedef struct {
    dr_writer base; /* first: the generic writer */
    const dr_avif_functions *lib;
    avifImage *image;
    unsigned char *rows; /* the RGB(A) 16-bit rows, ours (malloc: libavif's allocator aborts) */
    size_t row_bytes;
    int width, height, written;
    dr_avif_write_options options; /* within their ranges (dr_avif_writer_open) */
    dr_status status;
} avif10_writer;

static void avif10_close(dr_writer *base) {
    avif10_writer *w = (avif10_writer *)base;
    if (w->image != NULL) w->lib->avifImageDestroy(w->image);
    free(w->rows);
    free(w);
}

static dr_status avif10_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                                char *message, size_t capacity) {
    (void)message;
    (void)capacity;
    avif10_writer *w = (avif10_writer *)base;
    if (w->status != DR_OK) return w->status;
    w->lib->avifImageSetProfileICC(w->image, profile, length);
    return DR_OK;
}

static dr_status avif10_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                                   char *message, size_t capacity) {
    avif10_writer *w = (avif10_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written + count > w->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "AVIF: more rows than the image has");
    for (int i = 0; i < count; i++)
        memcpy(w->rows + w->row_bytes * (size_t)(w->written + i), rows + stride * (size_t)i, w->row_bytes);
    w->written += count;
    return DR_OK;
}

/* The rows' EXIF orientation, for readers that apply irot (counter-clockwise quarter turns) and
 * then imir. libheif 1.15 (darkroom's and vips' reader) cannot mirror an image deeper than 8
 * bits, so the mirror is done here, on the rows, and only irot is written: a mirror after a
 * turn by θ is the same mirror before a turn by −θ. */
static const int turns[9] = {0, 0, 0, 2, 0, 1, 3, 3, 1};
static const int mirror[9] = {-1, -1, 1, -1, 0, 0, -1, 0, -1}; /* 0: top and bottom exchanged, 1: left and right */

static void mirror_rows(avif10_writer *w, int left_right) {
    size_t pixel = (size_t)w->options.channels * 2;
    if (left_right) {
        unsigned char swap[8];
        for (int y = 0; y < w->height; y++) {
            unsigned char *row = w->rows + w->row_bytes * (size_t)y;
            for (int a = 0, b = w->width - 1; a < b; a++, b--) {
                memcpy(swap, row + pixel * (size_t)a, pixel);
                memcpy(row + pixel * (size_t)a, row + pixel * (size_t)b, pixel);
                memcpy(row + pixel * (size_t)b, swap, pixel);
            }
        }
    } else {
        for (int a = 0, b = w->height - 1; a < b; a++, b--) {
            unsigned char *top = w->rows + w->row_bytes * (size_t)a, *bottom = w->rows + w->row_bytes * (size_t)b;
            for (size_t i = 0; i < w->row_bytes; i++) {
                unsigned char t = top[i];
                top[i] = bottom[i];
                bottom[i] = t;
            }
        }
    }
}

static void apply_orientation(avif10_writer *w) {
    w->image->transformFlags &= ~(avifTransformFlags)(AVIF_TRANSFORM_IROT | AVIF_TRANSFORM_IMIR);
    int turn = turns[w->options.orientation];
    if (mirror[w->options.orientation] >= 0) {
        mirror_rows(w, mirror[w->options.orientation]);
        turn = (4 - turn) % 4;
    }
    if (turn != 0) {
        w->image->transformFlags |= AVIF_TRANSFORM_IROT;
        w->image->irot.angle = (uint8_t)turn;
    }
}

static dr_status result_status(avifResult result) {
    return result == AVIF_RESULT_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED;
}

static dr_status encode(avif10_writer *w, dr_buffer *out, char *message, size_t capacity) {
    apply_orientation(w);
    avifRGBImage rgb;
    w->lib->avifRGBImageSetDefaults(&rgb, w->image);
    rgb.depth = 16;
    rgb.format = w->options.channels == 4 ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    rgb.pixels = w->rows;
    rgb.rowBytes = (uint32_t)w->row_bytes;
    avifResult result = w->lib->avifImageRGBToYUV(w->image, &rgb);
    if (result != AVIF_RESULT_OK) {
        dr_set_message(message, capacity, "AVIF: RGB to YUV: %s", w->lib->avifResultToString(result));
        return result_status(result);
    }
    free(w->rows); /* the YUV planes hold the picture now */
    w->rows = NULL;
    avifEncoder *encoder = w->lib->avifEncoderCreate();
    if (encoder == NULL) {
        dr_set_message(message, capacity, "out of memory encoding AVIF");
        return DR_OUT_OF_MEMORY;
    }
    encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
    encoder->speed = w->options.speed;
    encoder->maxThreads = 4; /* libheif's aom plugin default, as the 8-bit path uses */
    /* libheif's mapping: constant quality with cq-level (100 - quality) × 63 / 100, the
     * quantiser free over 0…63, alpha at the same quality. */
    char level[8];
    snprintf(level, sizeof level, "%d", ((100 - w->options.quality) * 63 + 50) / 100);
    encoder->minQuantizer = encoder->minQuantizerAlpha = AVIF_QUANTIZER_BEST_QUALITY;
    encoder->maxQuantizer = encoder->maxQuantizerAlpha = AVIF_QUANTIZER_WORST_QUALITY;
    w->lib->avifEncoderSetCodecSpecificOption(encoder, "end-usage", "q");
    w->lib->avifEncoderSetCodecSpecificOption(encoder, "cq-level", level);
    w->lib->avifEncoderSetCodecSpecificOption(encoder, "a:end-usage", "q");
    w->lib->avifEncoderSetCodecSpecificOption(encoder, "a:cq-level", level);
    avifRWData data = AVIF_DATA_EMPTY;
    result = w->lib->avifEncoderWrite(encoder, w->image, &data);
    w->lib->avifEncoderDestroy(encoder);
    if (result != AVIF_RESULT_OK) {
        w->lib->avifRWDataFree(&data);
        dr_set_message(message, capacity, "AVIF: %s", w->lib->avifResultToString(result));
        return result_status(result);
    }
    int appended = dr_buffer_append(out, data.data, data.size);
    w->lib->avifRWDataFree(&data);
    if (!appended) {
        dr_buffer_free(out);
        dr_set_message(message, capacity, "out of memory encoding AVIF");
        return DR_OUT_OF_MEMORY;
    }
    return DR_OK;
}

static dr_status avif10_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    avif10_writer *w = (avif10_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->status != DR_OK) return w->status;
    if (w->written != w->height) {
        dr_set_message(message, capacity, "AVIF: %d of %d rows were written", w->written, w->height);
        return w->status = DR_ENCODE_FAILED;
    }
    return w->status = encode(w, out, message, capacity);
}

dr_status dr_avif10_writer_open(int width, int height, const dr_avif_write_options *options,
                                const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    const dr_avif_functions *lib = dr_avif_load(message, capacity);
    if (lib == NULL) return DR_UNSUPPORTED;
    if (lib->avifCodecName(AVIF_CODEC_CHOICE_AOM, AVIF_CODEC_FLAG_CAN_ENCODE) == NULL) {
        dr_set_message(message, capacity, "AVIF: this libavif has no libaom encoder for 10-bit AVIF");
        return DR_UNSUPPORTED;
    }
    avif10_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->lib = lib;
    w->base.format = DR_FORMAT_AVIF;
    w->base.set_icc = avif10_set_icc;
    w->base.write_rows = avif10_write_rows;
    w->base.finish = avif10_finish;
    w->base.close = avif10_close;
    w->width = width;
    w->height = height;
    w->options = *options;
    w->row_bytes = (size_t)width * (size_t)options->channels * 2;
    w->rows = malloc(w->row_bytes * (size_t)height);
    /* 4:2:0 below quality 90, full chroma above, as the 8-bit path (and libvips) does. */
    w->image = w->rows == NULL ? NULL
             : w->lib->avifImageCreate(width, height, 10, w->options.quality >= 90 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420);
    if (w->image == NULL) {
        avif10_close(&w->base);
        dr_set_message(message, capacity, "out of memory for a %d×%d AVIF", width, height);
        return DR_OUT_OF_MEMORY;
    }
    /* sRGB primaries and transfer, BT.601 matrix, full range: what libheif writes for 8-bit. */
    w->image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    w->image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    w->image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    w->image->yuvRange = AVIF_RANGE_FULL;
    if (metadata != NULL && metadata->exif != NULL) w->lib->avifImageSetMetadataExif(w->image, metadata->exif, metadata->exif_length);
    /* libavif 0.11 sets irot/imir from the EXIF Orientation it is given; they are ours to set
     * (apply_orientation), from the orientation of the rows. */
    w->image->transformFlags &= ~(avifTransformFlags)(AVIF_TRANSFORM_IROT | AVIF_TRANSFORM_IMIR);
    if (metadata != NULL && metadata->xmp != NULL) w->lib->avifImageSetMetadataXMP(w->image, metadata->xmp, metadata->xmp_length);
    *out = &w->base;
    return DR_OK;
}
