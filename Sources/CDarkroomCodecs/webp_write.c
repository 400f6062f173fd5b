/*
 * WebP output through libwebp. libwebp encodes a whole picture at once, so the rows go into the
 * picture as they come and are encoded at finish. Lossy: converted to YUV 4:2:0 as they come,
 * by libwebp's own WebPPictureImportRGB(A) on each pair-aligned run of rows (its conversion
 * works on pairs of rows, so the planes are the ones a whole-picture import gives, byte for
 * byte), while the pipeline still renders: the encoder's single-threaded conversion is gone
 * from the end, and the picture is 1.5 bytes a pixel (2.5 with alpha) instead of 4.
 * Lossless: packed into the ARGB plane it encodes. The metadata and ICC profile are added as
 * chunks with libwebpmux.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

typedef struct {
    dr_writer base; /* first: the generic writer */
    WebPPicture picture;
    WebPConfig config;
    int channels, written;
    unsigned char *carry; /* lossy: a row whose pair has not come yet */
    int carried;
    dr_status status;
    dr_metadata metadata; /* copies, owned */
    unsigned char *icc;
    size_t icc_length;
} webp_writer;

static void webp_writer_close(dr_writer *base) {
    webp_writer *w = (webp_writer *)base;
    WebPPictureFree(&w->picture);
    free(w->carry);
    dr_metadata_free(&w->metadata);
    free(w->icc);
    free(w);
}

/* Rows of 8-bit RGB or RGBA (`channels`) into the ARGB picture's rows from `first` on; shared with
 * the animated writer (webp_anim_write.c). */
void dr_webp_pack_argb(WebPPicture *picture, int first, const unsigned char *rows, size_t stride, int count, int channels) {
    for (int i = 0; i < count; i++) {
        const unsigned char *p = rows + stride * (size_t)i;
        uint32_t *argb = picture->argb + (size_t)picture->argb_stride * (size_t)(first + i);
        for (int x = 0; x < picture->width; x++, p += channels) {
            uint32_t a = channels == 4 ? p[3] : 255;
            argb[x] = a << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        }
    }
}

static dr_status webp_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                              char *message, size_t capacity) {
    webp_writer *w = (webp_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written > 0) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: the ICC profile must come before the rows");
    free(w->icc);
    w->icc = NULL;
    w->icc_length = 0;
    dr_metadata_keep(&w->icc, &w->icc_length, profile, length);
    return DR_OK;
}

/* Converts `count` rows (starting at an even row, `count` even unless they end the picture) into
 * the picture's YUV(A) planes at row `y`, through a picture of their own. */
static int import_yuv(webp_writer *w, const unsigned char *rows, size_t stride, int count, int y) {
    WebPPicture part;
    if (!WebPPictureInit(&part)) return 0;
    part.width = w->picture.width;
    part.height = count;
    int ok = w->channels == 4 ? WebPPictureImportRGBA(&part, rows, (int)stride)
                              : WebPPictureImportRGB(&part, rows, (int)stride);
    if (ok) {
        WebPPicture *p = &w->picture;
        size_t width = (size_t)p->width, uv_width = (width + 1) / 2;
        for (int i = 0; i < count; i++) {
            memcpy(p->y + (size_t)p->y_stride * (size_t)(y + i), part.y + (size_t)part.y_stride * (size_t)i, width);
            if (p->a != NULL) {
                /* A run without transparency comes back without an alpha plane. */
                unsigned char *to = p->a + (size_t)p->a_stride * (size_t)(y + i);
                if (part.a != NULL) memcpy(to, part.a + (size_t)part.a_stride * (size_t)i, width);
                else memset(to, 0xff, width);
            }
        }
        for (int i = 0; i < (count + 1) / 2; i++) {
            size_t row = (size_t)(y / 2 + i);
            memcpy(p->u + (size_t)p->uv_stride * row, part.u + (size_t)part.uv_stride * (size_t)i, uv_width);
            memcpy(p->v + (size_t)p->uv_stride * row, part.v + (size_t)part.uv_stride * (size_t)i, uv_width);
        }
    }
    WebPPictureFree(&part);
    return ok;
}

/* Lossy rows: whole pairs converted now, an odd last row kept until its pair comes (or the
 * picture ends with it). */
static dr_status write_yuv(webp_writer *w, const unsigned char *rows, size_t stride, int count,
                           char *message, size_t capacity) {
    size_t row_bytes = (size_t)w->picture.width * (size_t)w->channels;
    int y = w->written - w->carried; /* the first row not yet converted: even */
    int ok = 1;
    if (w->carried && count > 0) {
        unsigned char *pair = malloc(2 * row_bytes);
        ok = pair != NULL;
        if (ok) {
            memcpy(pair, w->carry, row_bytes);
            memcpy(pair + row_bytes, rows, row_bytes);
            ok = import_yuv(w, pair, row_bytes, 2, y);
            free(pair);
        }
        rows += stride;
        count--;
        w->written++;
        w->carried = 0;
        y += 2;
    }
    int whole = count - count % 2;
    if (ok && whole > 0) ok = import_yuv(w, rows, stride, whole, y);
    w->written += whole;
    if (ok && count % 2) {
        if (w->written + 1 == w->picture.height) {
            ok = import_yuv(w, rows + stride * (size_t)whole, stride, 1, y + whole);
        } else {
            memcpy(w->carry, rows + stride * (size_t)whole, row_bytes);
            w->carried = 1;
        }
        w->written++;
    }
    return ok ? DR_OK : dr_fail(&w->status, message, capacity, DR_OUT_OF_MEMORY, "out of memory converting WebP rows");
}

static dr_status webp_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                                 char *message, size_t capacity) {
    webp_writer *w = (webp_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written + count > w->picture.height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: more rows than the image has");
    if (!w->picture.use_argb) return write_yuv(w, rows, stride, count, message, capacity);
    dr_webp_pack_argb(&w->picture, w->written, rows, stride, count, w->channels);
    w->written += count;
    return DR_OK;
}

static const char *encoding_error(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is larger than WebP allows (16383 pixels a side)";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for a lossy WebP partition (lower the quality)";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be over 4 GB";
    default: return "the encoder failed";
    }
}

int dr_webp_add_chunks(const WebPData *image, const unsigned char *icc, size_t icc_length, const dr_metadata *metadata,
                       dr_buffer *out) {
    if (icc == NULL && (metadata == NULL || (metadata->exif == NULL && metadata->xmp == NULL)))
        return dr_buffer_append(out, image->bytes, image->size);
    WebPData assembled = {NULL, 0};
    WebPMux *mux = WebPMuxCreate(image, 0);
    if (mux == NULL) return 0;
    int ok = 1;
    WebPData chunk;
    if (icc != NULL) {
        chunk = (WebPData){icc, icc_length};
        ok = ok && WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK;
    }
    if (metadata != NULL && metadata->exif != NULL) {
        chunk = (WebPData){metadata->exif, metadata->exif_length};
        ok = ok && WebPMuxSetChunk(mux, "EXIF", &chunk, 0) == WEBP_MUX_OK;
    }
    if (metadata != NULL && metadata->xmp != NULL) {
        chunk = (WebPData){metadata->xmp, metadata->xmp_length};
        ok = ok && WebPMuxSetChunk(mux, "XMP ", &chunk, 0) == WEBP_MUX_OK;
    }
    ok = ok && WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    ok = ok && dr_buffer_append(out, assembled.bytes, assembled.size);
    WebPDataClear(&assembled);
    return ok;
}

static dr_status webp_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    webp_writer *w = (webp_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->status != DR_OK) return w->status;
    if (w->written != w->picture.height) {
        dr_set_message(message, capacity, "WebP: %d of %d rows were written", w->written, w->picture.height);
        return w->status = DR_ENCODE_FAILED;
    }
    WebPMemoryWriter memory;
    WebPMemoryWriterInit(&memory);
    w->picture.writer = WebPMemoryWrite;
    w->picture.custom_ptr = &memory;
    if (!WebPEncode(&w->config, &w->picture)) {
        WebPMemoryWriterClear(&memory);
        dr_set_message(message, capacity, "WebP: %s", encoding_error(w->picture.error_code));
        return w->status = w->picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED;
    }
    /* The ARGB plane is no longer needed: give it back before the chunks are assembled. */
    WebPPictureFree(&w->picture);
    WebPData image = {memory.mem, memory.size};
    int ok = dr_webp_add_chunks(&image, w->icc, w->icc_length, &w->metadata, out);
    WebPMemoryWriterClear(&memory);
    if (!ok) {
        dr_buffer_free(out);
        return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "WebP: the metadata chunks could not be added");
    }
    return DR_OK;
}

dr_status dr_webp_writer_open(int width, int height, const dr_webp_write_options *options,
                              const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        dr_set_message(message, capacity, "WebP cannot hold an image wider or taller than %d pixels", WEBP_MAX_DIMENSION);
        return DR_ENCODE_FAILED;
    }
    if (options->animated) return dr_webp_anim_writer_open(width, height, options, metadata, out, message, capacity);
    webp_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->base.format = DR_FORMAT_WEBP;
    w->base.set_icc = webp_set_icc;
    w->base.write_rows = webp_write_rows;
    w->base.finish = webp_finish;
    w->base.close = webp_writer_close;
    w->channels = options->channels == 4 ? 4 : 3;
    if (!WebPPictureInit(&w->picture) || !WebPConfigInit(&w->config)) {
        free(w);
        dr_set_message(message, capacity, "WebP: libwebp version mismatch");
        return DR_ENCODE_FAILED;
    }
    float quality = options->quality < 0 ? 0 : options->quality > 100 ? 100 : options->quality;
    w->config.quality = quality;
    w->config.lossless = options->lossless ? 1 : 0;
    w->config.method = options->effort < 0 ? 0 : options->effort > 6 ? 6 : options->effort;
    /* Lossless keeps the colour under fully transparent pixels, so the round trip is exact. */
    w->config.exact = options->lossless ? 1 : 0;
    /* A second thread for the lossy encoder's analysis and filtering passes (libwebp's own
     * threading; the rows are all in by then, so the pipeline's threads are idle). */
    w->config.thread_level = 1;
    if (!WebPValidateConfig(&w->config)) {
        free(w);
        dr_set_message(message, capacity, "WebP: invalid encoder settings");
        return DR_ENCODE_FAILED;
    }
    w->picture.use_argb = w->config.lossless;
    w->picture.colorspace = w->channels == 4 ? WEBP_YUV420A : WEBP_YUV420;
    w->picture.width = width;
    w->picture.height = height;
    if (!w->picture.use_argb) w->carry = malloc((size_t)width * (size_t)w->channels);
    if ((!w->picture.use_argb && w->carry == NULL) || !WebPPictureAlloc(&w->picture)) {
        free(w->carry);
        free(w);
        dr_set_message(message, capacity, "out of memory for a %d×%d WebP picture", width, height);
        return DR_OUT_OF_MEMORY;
    }
    if (metadata != NULL) {
        dr_metadata_keep(&w->metadata.exif, &w->metadata.exif_length, metadata->exif, metadata->exif_length);
        dr_metadata_keep(&w->metadata.xmp, &w->metadata.xmp_length, metadata->xmp, metadata->xmp_length);
    }
    *out = &w->base;
    return DR_OK;
}
