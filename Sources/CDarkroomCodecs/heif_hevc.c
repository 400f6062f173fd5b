/*
 * HEVC (HEIC) decoding for libheif with libde265's worker threads: a decoder plugin registered
 * above libheif's own libde265 plugin. libheif 1.15's plugin starts libde265 with a single
 * worker thread, so one picture decodes on one core even when its stream is coded for parallel
 * decoding (wavefront rows: x265's default, so `heif-enc`'s HEIC; tiles); with a worker per
 * core libde265 decodes those rows, and runs its deblocking and SAO passes, in parallel. The
 * output is the same decoder on the same code path (a one-thread libde265 already decodes
 * through its task queue), only with more workers; the image it hands libheif is built exactly
 * as libheif's own plugin builds it (YCbCr planes copied out, the stream's nclx attached), so
 * libheif's colour conversion, transformations, grids and alpha work as before (heif_picture.c).
 * Each sequence parameter set's picture size is read (hevc_sps.c) and held to the decode's limit
 * before libde265 allocates the picture.
 *
 * The workers are compute slots (dr_threads_take): as many as are free, up to a worker per
 * core; with none free, one worker computes while the thread that asked waits on it (the one
 * decoder thread a job may run beyond the slots). A grid HEIC (a phone's: 512×512 tiles) has
 * its tiles decoded one after another on the caller's thread (heif.c), each with such workers,
 * so a decode never runs more threads than that whatever its tiling. A small picture (under
 * DR_HEIF_PARALLEL_MIN_BYTES of HEVC data) is decoded on the caller's thread with no workers: starting
 * and joining them costs more than they save there, and a grid of many small tiles would start
 * and join a set per tile (a fuzzed 192×128 grid spent seconds in thread creation under ASan).
 */
#include "heif_library.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    de265_decoder_context *context;
    int strict;
    size_t pushed; /* bytes of HEVC data pushed: decides whether workers pay */
    int slots;     /* compute slots its workers hold, given back when it is freed */
    int workers;   /* worker threads started (none for a small picture) */
} hevc_decoder;

static const struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

/* A sequence parameter set's picture size against the thread's limit, before libde265 allocates it. */
static struct heif_error check_parameter_set(const unsigned char *nal, size_t length) {
    if (length < 2 || ((nal[0] >> 1) & 0x3f) != 33) return ok;
    uint32_t width, height;
    if (dr_hevc_sps_size(nal, length, &width, &height))
        return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "HEVC sequence parameter set ends before the picture size"};
    return dr_heif_check_picture_size(width, height, "HEVC");
}

static const char *hevc_name(void) { return "darkroom: libde265 HEVC decoder, a worker per core"; }
static void hevc_init(void) { dr_de265.de265_init(); }
static void hevc_deinit(void) { dr_de265.de265_free(); }

/* Above libheif's own libde265 plugin (priority 100), so libheif picks this one for HEVC. */
static int hevc_supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? 200 : 0; }

static struct heif_error hevc_new(void **out) {
    hevc_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    decoder->context = dr_de265.de265_new_decoder();
    if (decoder->context == NULL) {
        free(decoder);
        return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    }
    *out = decoder;
    return ok;
}

static void hevc_free(void *raw) {
    hevc_decoder *decoder = raw;
    dr_de265.de265_free_decoder(decoder->context); /* joins its workers */
    dr_threads_give(decoder->slots);
    free(decoder);
}

static void hevc_set_strict(void *raw, int strict) { ((hevc_decoder *)raw)->strict = strict; }

/* NAL units, each after a 4-byte big-endian length (hvcC's header NALs, then the item's data). */
static struct heif_error hevc_push(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const unsigned char *bytes = data;
    const struct heif_error truncated = {heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "HEVC data ends inside a NAL unit"};
    size_t at = 0;
    while (at < size) {
        if (size - at < 4) return truncated;
        uint32_t length = (uint32_t)bytes[at] << 24 | (uint32_t)bytes[at + 1] << 16 | (uint32_t)bytes[at + 2] << 8 | bytes[at + 3];
        at += 4;
        if (length > size - at) return truncated;
        struct heif_error checked = check_parameter_set(bytes + at, length);
        if (checked.code != heif_error_Ok) return checked;
        if (dr_de265.de265_push_NAL(decoder->context, bytes + at, (int)length, 0, NULL) != DE265_OK)
            return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "libde265 could not take a NAL unit"};
        at += length;
    }
    decoder->pushed += size;
    return ok;
}

/* libde265's picture as a dr_coded_picture; an error for planes of different bit depths. */
static struct heif_error describe(const struct de265_image *picture, dr_coded_picture *out) {
    memset(out, 0, sizeof *out);
    out->width = dr_de265.de265_get_image_width(picture, 0);
    out->height = dr_de265.de265_get_image_height(picture, 0);
    out->bits = dr_de265.de265_get_bits_per_pixel(picture, 0);
    out->chroma = (enum heif_chroma)dr_de265.de265_get_chroma_format(picture); /* the same codes */
    for (int c = 0; c < (out->chroma == heif_chroma_monochrome ? 1 : 3); c++) {
        if (dr_de265.de265_get_bits_per_pixel(picture, c) != out->bits)
            return (struct heif_error){heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion, "HEVC planes of different bit depths"};
        int stride;
        out->planes[c] = dr_de265.de265_get_image_plane(picture, c, &stride);
        out->strides[c] = stride;
        out->plane_width[c] = dr_de265.de265_get_image_width(picture, c);
        out->plane_height[c] = dr_de265.de265_get_image_height(picture, c);
    }
    out->primaries = dr_de265.de265_get_image_colour_primaries(picture);
    out->transfer = dr_de265.de265_get_image_transfer_characteristics(picture);
    out->matrix = dr_de265.de265_get_image_matrix_coefficients(picture);
    out->full_range = dr_de265.de265_get_image_full_range_flag(picture);
    return ok;
}

static struct heif_error hevc_decode(void *raw, struct heif_image **out) {
    hevc_decoder *decoder = raw;
    *out = NULL;
    if (decoder->workers == 0 && decoder->pushed >= DR_HEIF_PARALLEL_MIN_BYTES) {
        decoder->slots = dr_threads_take(dr_heif_worker_count());
        decoder->workers = decoder->slots > 0 ? decoder->slots : 1;
        dr_de265.de265_start_worker_threads(decoder->context, decoder->workers);
    }
    dr_de265.de265_flush_data(decoder->context);
    int more;
    do {
        more = 0;
        if (dr_de265.de265_decode(decoder->context, &more) != DE265_OK) break;
        const struct de265_image *picture = dr_de265.de265_get_next_picture(decoder->context);
        if (picture == NULL) continue;
        if (*out != NULL) dr_heif.heif_image_release(*out); /* an item holds one picture; keep the last, as libheif does */
        *out = NULL;
        dr_coded_picture coded;
        struct heif_error error = describe(picture, &coded);
        if (error.code == heif_error_Ok) error = dr_heif_picture_image(&coded, decoder->strict, out);
        dr_de265.de265_release_next_picture(decoder->context);
        if (error.code != heif_error_Ok) return error;
    } while (more);
    if (*out == NULL)
        return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "the HEVC data holds no picture"};
    return ok;
}

static const struct heif_decoder_plugin hevc_plugin = {
    .plugin_api_version = 3,
    .get_plugin_name = hevc_name,
    .init_plugin = hevc_init,
    .deinit_plugin = hevc_deinit,
    .does_support_format = hevc_supports,
    .new_decoder = hevc_new,
    .free_decoder = hevc_free,
    .push_data = hevc_push,
    .decode_image = hevc_decode,
    .set_strict_decoding = hevc_set_strict,
    .id_name = "darkroom-libde265",
};

const struct heif_decoder_plugin *dr_hevc_plugin(void) { return &hevc_plugin; }
