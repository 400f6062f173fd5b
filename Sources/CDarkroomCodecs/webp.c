/*
 * WebP input through libwebp. A still image is decoded incrementally (WebPIDecoder): input is
 * fed in 64 KB pieces only until the rows asked for are decoded, so rows reach the pipeline
 * while the rest of the file is still undecoded. libwebp decodes into one buffer of the whole
 * image (its API has no row callback); that buffer is counted in the job's memory estimate.
 * An animation gives its first frame, composed on its canvas (WebPAnimDecoder), and
 * info->pages says how many frames it has. The ICCP, EXIF and XMP chunks are read with
 * libwebpdemux. libwebp returns status codes; nothing longjmps or prints.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

#define FEED_BYTES 65536

static dr_status status_of(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OK: return DR_OK;
    case VP8_STATUS_NOT_ENOUGH_DATA: return DR_TRUNCATED;
    case VP8_STATUS_OUT_OF_MEMORY: return DR_OUT_OF_MEMORY;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return DR_UNSUPPORTED;
    default: return DR_CORRUPT;
    }
}

static dr_status webp_error(VP8StatusCode code, char *message, size_t capacity) {
    switch (code) {
    case VP8_STATUS_NOT_ENOUGH_DATA: dr_set_message(message, capacity, "WebP data ends early (truncated file?)"); break;
    case VP8_STATUS_OUT_OF_MEMORY: dr_set_message(message, capacity, "out of memory decoding WebP"); break;
    case VP8_STATUS_UNSUPPORTED_FEATURE: dr_set_message(message, capacity, "WebP: unsupported feature"); break;
    default: dr_set_message(message, capacity, "WebP: corrupt bitstream (libwebp status %d)", (int)code); break;
    }
    return status_of(code);
}

/* Copies the ICCP, EXIF and XMP chunks of a whole file; counts its frames. */
static dr_status collect_chunks(const unsigned char *bytes, size_t length, dr_info *info) {
    WebPData data = {bytes, length};
    WebPDemuxer *demux = WebPDemux(&data);
    if (demux == NULL) return DR_OK; /* a truncated or odd container: the decode says why */
    uint32_t frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    info->pages = frames > 1 ? (int)frames : 1;
    WebPChunkIterator chunk;
    dr_status status = DR_OK;
    if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        info->has_icc = 1;
        if (!dr_info_store_icc(info, chunk.chunk.bytes, chunk.chunk.size)) status = DR_OUT_OF_MEMORY;
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
        const unsigned char *tiff = chunk.chunk.bytes;
        size_t n = chunk.chunk.size;
        /* Some writers keep JPEG's "Exif\0\0" prefix. */
        if (n >= 6 && memcmp(tiff, "Exif\0\0", 6) == 0) { tiff += 6; n -= 6; }
        dr_info_store_exif(info, tiff, n);
        if (info->metadata != NULL) dr_metadata_keep(&info->metadata->exif, &info->metadata->exif_length, tiff, n);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    if (info->metadata != NULL && WebPDemuxGetChunk(demux, "XMP ", 1, &chunk)) {
        dr_metadata_keep(&info->metadata->xmp, &info->metadata->xmp_length, chunk.chunk.bytes, chunk.chunk.size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
    return status;
}

static dr_status describe(const unsigned char *bytes, size_t length, dr_info *info, WebPBitstreamFeatures *features,
                          char *message, size_t capacity) {
    VP8StatusCode code = WebPGetFeatures(bytes, length, features);
    if (code != VP8_STATUS_OK) return webp_error(code, message, capacity);
    info->format = DR_FORMAT_WEBP;
    info->width = features->width;
    info->height = features->height;
    /* An animation's canvas may be transparent where the first frame does not cover it. */
    info->has_alpha = features->has_alpha || features->has_animation;
    info->channels = info->has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->color_space = DR_SPACE_RGB;
    dr_status status = collect_chunks(bytes, length, info);
    if (status == DR_OUT_OF_MEMORY) dr_set_message(message, capacity, "out of memory reading WebP chunks");
    return status;
}

dr_status dr_webp_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity) {
    WebPBitstreamFeatures features;
    return describe(bytes, length, info, &features, message, capacity);
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    WebPIDecoder *incremental;
    WebPDecoderConfig config;
    WebPAnimDecoder *animation;
    const unsigned char *pixels; /* the decoded image (incremental: rows up to `decoded`) */
    int stride, image_height;
    int decoded;                 /* rows of `pixels` ready */
    size_t fed, length;
    int next_row, crop_x, crop_y;
    int pixel_bytes;
    dr_status status;
    uint64_t deadline_ns;
} webp_reader;

static void webp_reader_close(dr_reader *base) {
    webp_reader *r = (webp_reader *)base;
    if (r->incremental != NULL) WebPIDelete(r->incremental);
    WebPFreeDecBuffer(&r->config.output);
    if (r->animation != NULL) WebPAnimDecoderDelete(r->animation);
    dr_color_converter_free(r->base.color);
    free(r);
}

/* Feeds input until at least `rows` rows are decoded. */
static dr_status decode_until(webp_reader *r, int rows, char *message, size_t capacity) {
    while (r->decoded < rows) {
        if (r->deadline_ns != 0 && dr_monotonic_ns() > r->deadline_ns)
            return dr_fail(&r->status, message, capacity, DR_CANCELLED, "decoding ran past the time limit");
        if (r->fed >= r->length)
            return dr_fail(&r->status, message, capacity, DR_TRUNCATED, "WebP data ends early (truncated file?)");
        size_t n = r->length - r->fed < FEED_BYTES ? r->length - r->fed : FEED_BYTES;
        VP8StatusCode code = WebPIAppend(r->incremental, r->base.bytes + r->fed, n);
        r->fed += n;
        if (code != VP8_STATUS_OK && code != VP8_STATUS_SUSPENDED) {
            r->status = webp_error(code, message, capacity);
            return r->status;
        }
        int last_y = 0, width = 0, height = 0, stride = 0;
        const uint8_t *pixels = WebPIDecGetRGB(r->incremental, &last_y, &width, &height, &stride);
        if (pixels != NULL) {
            r->pixels = pixels;
            r->stride = stride;
            r->decoded = last_y;
        }
        if (code == VP8_STATUS_OK && r->decoded < rows)
            return dr_fail(&r->status, message, capacity, DR_CORRUPT, "WebP: the image ends before its last row");
    }
    return DR_OK;
}

static dr_status webp_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count,
                                char *message, size_t capacity) {
    webp_reader *r = (webp_reader *)base;
    if (r->status != DR_OK) {
        dr_set_message(message, capacity, "the WebP reader failed earlier");
        return r->status;
    }
    int first = r->crop_y + r->next_row;
    if (first + count > r->image_height) return dr_fail(&r->status, message, capacity, DR_CORRUPT, "WebP: more rows asked for than the image has");
    if (r->incremental != NULL) {
        dr_status status = decode_until(r, first + count, message, capacity);
        if (status != DR_OK) return status;
    }
    size_t offset = (size_t)r->crop_x * (size_t)r->pixel_bytes, copy = (size_t)r->base.width * (size_t)r->pixel_bytes;
    for (int i = 0; i < count; i++) {
        unsigned char *target = rows + stride * (size_t)i;
        memcpy(target, r->pixels + (size_t)r->stride * (size_t)(first + i) + offset, copy);
        if (r->base.color != NULL) dr_color_converter_rows(r->base.color, target, (size_t)r->base.width);
    }
    r->next_row += count;
    return DR_OK;
}

/* The first frame of an animation, composed on the canvas. */
static dr_status open_animation(webp_reader *r, const unsigned char *bytes, size_t length, char *message, size_t capacity) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return dr_fail(&r->status, message, capacity, DR_UNSUPPORTED, "WebP: libwebpdemux version mismatch");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData data = {bytes, length};
    r->animation = WebPAnimDecoderNew(&data, &options);
    if (r->animation == NULL) return dr_fail(&r->status, message, capacity, DR_CORRUPT, "WebP: the animation could not be read (corrupt or truncated)");
    WebPAnimInfo info;
    WebPAnimDecoderGetInfo(r->animation, &info);
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(r->animation, &frame, &timestamp) || frame == NULL)
        return dr_fail(&r->status, message, capacity, DR_CORRUPT, "WebP: the first frame could not be decoded");
    r->pixels = frame;
    r->stride = (int)info.canvas_width * 4;
    r->image_height = (int)info.canvas_height;
    r->decoded = r->image_height;
    return DR_OK;
}

dr_status dr_webp_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **out, char *message, size_t capacity) {
    WebPBitstreamFeatures features;
    dr_status status = describe(bytes, length, info, &features, message, capacity);
    if (status != DR_OK) return status;
    if (!dr_fits(info, options->max_pixels)) return dr_too_large(info, options->max_pixels, message, capacity);
    webp_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return DR_OUT_OF_MEMORY;
    r->base.format = DR_FORMAT_WEBP;
    r->base.read_rows = webp_read_rows;
    r->base.close = webp_reader_close;
    r->base.bytes = bytes;
    r->length = length;
    r->deadline_ns = options->deadline_ns;
    int alpha = features.has_alpha || features.has_animation;
    r->pixel_bytes = alpha ? 4 : 3;
    if (features.has_animation) {
        status = open_animation(r, bytes, length, message, capacity);
    } else if (!WebPInitDecoderConfig(&r->config)) {
        status = dr_fail(&r->status, message, capacity, DR_UNSUPPORTED, "WebP: libwebp version mismatch");
    } else {
        r->config.output.colorspace = alpha ? MODE_RGBA : MODE_RGB;
        r->image_height = features.height;
        r->incremental = WebPINewDecoder(&r->config.output);
        if (r->incremental == NULL) status = dr_fail(&r->status, message, capacity, DR_OUT_OF_MEMORY, "out of memory decoding WebP");
    }
    if (status != DR_OK) {
        webp_reader_close(&r->base);
        return status;
    }
    dr_reader_window(&r->base, options, info, &r->crop_x, &r->crop_y);
    r->base.channels = r->pixel_bytes;
    r->base.bytes_per_sample = 1;
    r->base.color = dr_reader_color_setup(&r->base, info, options, DR_SPACE_RGB, r->base.channels, 0);
    memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}
