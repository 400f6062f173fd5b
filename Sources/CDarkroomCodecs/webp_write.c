/*
 * WebP output through libwebp. libwebp encodes a whole picture at once, so the rows are packed
 * as they come into the picture's ARGB plane (4 bytes a pixel, the only copy: the lossy encoder
 * converts it to YUV itself, as WebPPictureImportRGB would) and encoded at finish. The
 * metadata and ICC profile are added as chunks with libwebpmux.
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
    dr_status status;
    dr_metadata metadata; /* copies, owned */
    unsigned char *icc;
    size_t icc_length;
} webp_writer;

static void webp_writer_close(dr_writer *base) {
    webp_writer *w = (webp_writer *)base;
    WebPPictureFree(&w->picture);
    dr_metadata_free(&w->metadata);
    free(w->icc);
    free(w);
}

static dr_status failed(webp_writer *w, char *message, size_t capacity, dr_status status, const char *text) {
    w->status = status;
    dr_set_message(message, capacity, "%s", text);
    return status;
}

static dr_status webp_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                              char *message, size_t capacity) {
    webp_writer *w = (webp_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written > 0) return failed(w, message, capacity, DR_ENCODE_FAILED, "WebP: the ICC profile must come before the rows");
    free(w->icc);
    w->icc = NULL;
    w->icc_length = 0;
    dr_metadata_keep(&w->icc, &w->icc_length, profile, length);
    return DR_OK;
}

static dr_status webp_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                                 char *message, size_t capacity) {
    webp_writer *w = (webp_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written + count > w->picture.height) return failed(w, message, capacity, DR_ENCODE_FAILED, "WebP: more rows than the image has");
    for (int i = 0; i < count; i++) {
        const unsigned char *p = rows + stride * (size_t)i;
        uint32_t *argb = w->picture.argb + (size_t)w->picture.argb_stride * (size_t)(w->written + i);
        for (int x = 0; x < w->picture.width; x++, p += w->channels) {
            uint32_t a = w->channels == 4 ? p[3] : 255;
            argb[x] = a << 24 | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        }
    }
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

/* Adds the ICCP, EXIF and XMP chunks to an encoded WebP. */
static int add_chunks(webp_writer *w, const WebPMemoryWriter *image, dr_buffer *out) {
    WebPData data = {image->mem, image->size}, assembled = {NULL, 0};
    WebPMux *mux = WebPMuxCreate(&data, 0);
    if (mux == NULL) return 0;
    int ok = 1;
    WebPData chunk;
    if (w->icc != NULL) {
        chunk = (WebPData){w->icc, w->icc_length};
        ok = ok && WebPMuxSetChunk(mux, "ICCP", &chunk, 0) == WEBP_MUX_OK;
    }
    if (w->metadata.exif != NULL) {
        chunk = (WebPData){w->metadata.exif, w->metadata.exif_length};
        ok = ok && WebPMuxSetChunk(mux, "EXIF", &chunk, 0) == WEBP_MUX_OK;
    }
    if (w->metadata.xmp != NULL) {
        chunk = (WebPData){w->metadata.xmp, w->metadata.xmp_length};
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
    int ok = w->icc == NULL && w->metadata.exif == NULL && w->metadata.xmp == NULL
                 ? dr_buffer_append(out, memory.mem, memory.size)
                 : add_chunks(w, &memory, out);
    WebPMemoryWriterClear(&memory);
    if (!ok) {
        dr_buffer_free(out);
        return failed(w, message, capacity, DR_ENCODE_FAILED, "WebP: the metadata chunks could not be added");
    }
    return DR_OK;
}

dr_status dr_webp_writer_open(int width, int height, const dr_webp_write_options *options,
                              const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        dr_set_message(message, capacity, "WebP cannot hold an image wider or taller than %d pixels", WEBP_MAX_DIMENSION);
        return DR_ENCODE_FAILED;
    }
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
    w->picture.use_argb = 1;
    w->picture.width = width;
    w->picture.height = height;
    if (!WebPPictureAlloc(&w->picture)) {
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
