/*
 * AV1 (AVIF) decoding for libheif with dav1d: a decoder plugin registered above libheif's own
 * dav1d plugin, which opens dav1d with a thread per core whatever else runs and a frame limit of
 * 32768 × 32768 (a few bytes of AVIF could ask for gigabytes), calls dav1d_send_data with no data
 * left (dav1d prints a warning on stderr for it) and keeps a picture on some error paths. Here:
 *
 * - the frame limit is the decode's (dr_heif_pixel_limit: the job's pixel limit), which dav1d
 *   checks before it allocates a frame; the side is checked on the decoded picture;
 * - the threads are compute slots (dr_threads_take), as the HEVC plugin's: with two or more free,
 *   dav1d gets that many; with fewer, or under DR_HEIF_PARALLEL_MIN_BYTES of AV1 data, it decodes
 *   on the caller's thread and starts none;
 * - the picture is built for libheif as its own plugin builds it (heif_picture.c), film grain
 *   applied, the sequence header's colour description attached.
 */
#include "heif_library.h"
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data; /* the item's OBUs as libheif pushes them (av1C's, then the item's) */
    size_t length;
    int strict;
} av1_decoder;

static const struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

static struct heif_error failed(const char *message) {
    return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified, message};
}

static const char *av1_name(void) { return "darkroom: dav1d AV1 decoder on the compute slots"; }
static void av1_init(void) {}
static void av1_deinit(void) {}
static int av1_supports(enum heif_compression_format format) { return format == heif_compression_AV1 ? 200 : 0; }

static struct heif_error av1_new(void **out) {
    av1_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    *out = decoder;
    return ok;
}

static void av1_free(void *raw) {
    av1_decoder *decoder = raw;
    free(decoder->data);
    free(decoder);
}

static void av1_set_strict(void *raw, int strict) { ((av1_decoder *)raw)->strict = strict; }

static struct heif_error av1_push(void *raw, const void *data, size_t size) {
    av1_decoder *decoder = raw;
    if (size > SIZE_MAX - decoder->length) return failed("AV1 data too large");
    unsigned char *grown = realloc(decoder->data, decoder->length + size);
    if (grown == NULL && decoder->length + size > 0)
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    decoder->data = grown;
    if (size > 0) memcpy(decoder->data + decoder->length, data, size);
    decoder->length += size;
    return ok;
}

/* dav1d's picture as a dr_coded_picture. */
static struct heif_error describe(const Dav1dPicture *picture, dr_coded_picture *out) {
    memset(out, 0, sizeof *out);
    out->width = picture->p.w;
    out->height = picture->p.h;
    out->bits = picture->p.bpc;
    int shift_x = 1, shift_y = 1;
    switch (picture->p.layout) {
    case DAV1D_PIXEL_LAYOUT_I400: out->chroma = heif_chroma_monochrome; break;
    case DAV1D_PIXEL_LAYOUT_I420: out->chroma = heif_chroma_420; break;
    case DAV1D_PIXEL_LAYOUT_I422: out->chroma = heif_chroma_422; shift_y = 0; break;
    case DAV1D_PIXEL_LAYOUT_I444: out->chroma = heif_chroma_444; shift_x = shift_y = 0; break;
    default: return failed("AV1 picture of an unknown chroma layout");
    }
    for (int c = 0; c < 3; c++) {
        out->planes[c] = picture->data[c];
        out->strides[c] = picture->stride[c > 0 ? 1 : 0];
        out->plane_width[c] = c == 0 ? picture->p.w : (picture->p.w + shift_x) >> shift_x;
        out->plane_height[c] = c == 0 ? picture->p.h : (picture->p.h + shift_y) >> shift_y;
    }
    const Dav1dSequenceHeader *sequence = picture->seq_hdr;
    if (sequence == NULL) return failed("AV1 picture without a sequence header");
    out->primaries = sequence->pri;
    out->transfer = sequence->trc;
    out->matrix = sequence->mtrx;
    out->full_range = sequence->color_range;
    return ok;
}

/* Sends every byte and returns the first picture (0), or dav1d's error. */
static int decode_picture(Dav1dContext *context, Dav1dData *data, Dav1dPicture *picture) {
    while (data->sz > 0) {
        int sent = dr_dav1d.dav1d_send_data(context, data);
        if (sent < 0 && sent != DAV1D_ERR(EAGAIN)) return sent;
        int got = dr_dav1d.dav1d_get_picture(context, picture);
        if (got != DAV1D_ERR(EAGAIN)) return got;
    }
    /* everything sent: a frame still in flight comes out now (dav1d drains on this call) */
    return dr_dav1d.dav1d_get_picture(context, picture);
}

/* The pushed data through an open dav1d, into a heif_image in *out. */
static struct heif_error decode_into(const av1_decoder *decoder, Dav1dContext *context, unsigned frame_limit,
                                     struct heif_image **out) {
    static _Thread_local char text[120]; /* libheif copies an error's message */
    if (decoder->length == 0) return failed("the AV1 data holds no picture");
    Dav1dData data = {0};
    uint8_t *bytes = dr_dav1d.dav1d_data_create(&data, decoder->length);
    if (bytes == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    memcpy(bytes, decoder->data, decoder->length);
    Dav1dPicture picture = {0};
    int result = decode_picture(context, &data, &picture);
    if (data.sz > 0) dr_dav1d.dav1d_data_unref(&data);
    if (result == DAV1D_ERR(ERANGE)) {
        snprintf(text, sizeof text, "an AV1 stream in it declares a frame over the limit of %u pixels", frame_limit);
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded, text};
    }
    if (result == DAV1D_ERR(EAGAIN)) return failed("the AV1 data holds no picture");
    if (result < 0) return failed("AV1 data dav1d cannot decode");
    struct heif_error error = dr_heif_check_picture_size((uint32_t)picture.p.w, (uint32_t)picture.p.h, "AV1");
    dr_coded_picture coded;
    if (error.code == heif_error_Ok) error = describe(&picture, &coded);
    if (error.code == heif_error_Ok) error = dr_heif_picture_image(&coded, decoder->strict, out);
    dr_dav1d.dav1d_picture_unref(&picture);
    return error;
}

static struct heif_error av1_decode(void *raw, struct heif_image **out) {
    av1_decoder *decoder = raw;
    *out = NULL;
    uint64_t max_pixels = dr_heif_pixel_limit(); /* the side: dr_heif_check_picture_size, on the picture */
    Dav1dSettings settings;
    dr_dav1d.dav1d_default_settings(&settings);
    int slots = decoder->length >= DR_HEIF_PARALLEL_MIN_BYTES ? dr_threads_take(dr_heif_worker_count()) : 0;
    if (slots < 2) { /* one worker would only make the caller wait for it */
        dr_threads_give(slots);
        slots = 0;
    }
    settings.n_threads = slots > 0 ? slots : 1;
    settings.max_frame_delay = 1; /* one still picture: no frame threading */
    settings.all_layers = 0;
    settings.frame_size_limit = max_pixels == 0 || max_pixels > UINT32_MAX ? UINT32_MAX : (unsigned)max_pixels;
    settings.logger.callback = NULL; /* its errors come back as codes; nothing on stderr */
    Dav1dContext *context = NULL;
    struct heif_error error = dr_dav1d.dav1d_open(&context, &settings) == 0 ? decode_into(decoder, context, settings.frame_size_limit, out)
                                                                          : failed("dav1d could not start");
    if (context != NULL) dr_dav1d.dav1d_close(&context); /* joins its threads */
    dr_threads_give(slots);
    return error;
}

static const struct heif_decoder_plugin av1_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = av1_name,
    .init_plugin = av1_init,
    .deinit_plugin = av1_deinit,
    .does_support_format = av1_supports,
    .new_decoder = av1_new,
    .free_decoder = av1_free,
    .push_data = av1_push,
    .decode_image = av1_decode,
    .set_strict_decoding = av1_set_strict,
    .id_name = "darkroom-dav1d",
};

const struct heif_decoder_plugin *dr_av1_plugin(void) { return &av1_plugin; }
