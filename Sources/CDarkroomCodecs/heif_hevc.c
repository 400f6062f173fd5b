/*
 * HEVC (HEIC) decoding for libheif with libde265's worker threads: a decoder plugin registered
 * above libheif's own libde265 plugin. libheif 1.15's plugin starts libde265 with a single
 * worker thread, so one picture decodes on one core even when its stream is coded for parallel
 * decoding (wavefront rows: x265's default, so `heif-enc`'s HEIC; tiles); with a worker per
 * core libde265 decodes those rows, and runs its deblocking and SAO passes, in parallel. The
 * output is the same decoder on the same code path (a one-thread libde265 already decodes
 * through its task queue), only with more workers; the image it hands libheif is built exactly
 * as libheif's own plugin builds it (YCbCr planes copied out, the stream's nclx attached), so
 * libheif's colour conversion, transformations, grids and alpha work as before.
 *
 * The workers are compute slots (dr_threads_take): as many as are free, up to a worker per
 * core; with none free, one worker computes while the thread that asked waits on it (the one
 * decoder thread a job may run beyond the slots). A grid HEIC (a phone's: 512×512 tiles) has
 * its tiles decoded one after another on the caller's thread (heif.c), each with such workers,
 * so a decode never runs more threads than that whatever its tiling. A small picture (under
 * PARALLEL_MIN_BYTES of HEVC data) is decoded on the caller's thread with no workers: starting
 * and joining them costs more than they save there, and a grid of many small tiles would start
 * and join a set per tile (a fuzzed 192×128 grid spent seconds in thread creation under ASan).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "heif_library.h"
#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* libde265 takes at most 32; beyond a few cores a single picture gains little. */
enum { MAX_WORKERS = 8 };
/* Well under a 512×512 tile at a phone's quality: below it one thread decodes in a millisecond or two. */
enum { PARALLEL_MIN_BYTES = 8 * 1024 };

typedef struct {
    de265_decoder_context *context;
    int strict;
    size_t pushed; /* bytes of HEVC data pushed: decides whether workers pay */
    int slots;     /* compute slots its workers hold, given back when it is freed */
    int workers;   /* worker threads started (none for a small picture) */
} hevc_decoder;

static const struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

/* Per thread: libheif decodes every item on the thread that asked (heif.c sets no tile threads). */
static _Thread_local uint32_t limit_side;
static _Thread_local uint64_t limit_pixels;

void dr_hevc_limit_pictures(uint32_t max_side, uint64_t max_pixels) {
    limit_side = max_side;
    limit_pixels = max_pixels;
}

/* A sequence parameter set's picture size against the thread's limit, before libde265 allocates it. */
static struct heif_error check_parameter_set(const unsigned char *nal, size_t length) {
    static _Thread_local char text[160]; /* libheif copies an error's message */
    if (length < 2 || ((nal[0] >> 1) & 0x3f) != 33 || (limit_side == 0 && limit_pixels == 0)) return ok;
    uint32_t width, height;
    if (dr_hevc_sps_size(nal, length, &width, &height))
        return (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "HEVC sequence parameter set ends before the picture size"};
    if ((limit_side == 0 || (width <= limit_side && height <= limit_side)) &&
        (limit_pixels == 0 || (uint64_t)width * height <= limit_pixels))
        return ok;
    snprintf(text, sizeof text, "an HEVC stream in it declares a %u×%u picture: over the limit of %llu pixels, %u a side",
             width, height, (unsigned long long)limit_pixels, limit_side);
    return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded, text};
}

static const char *hevc_name(void) { return "darkroom: libde265 HEVC decoder, a worker per core"; }
static void hevc_init(void) { dr_de265.de265_init(); }
static void hevc_deinit(void) { dr_de265.de265_free(); }

/* Above libheif's own libde265 plugin (priority 100), so libheif picks this one for HEVC. */
static int hevc_supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? 200 : 0; }

/* The cores this process may run on (taskset, systemd's CPUAffinity=), else those online. */
static int worker_count(void) {
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : (int)cores;
}

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

/* The picture's planes copied into a new heif_image, as libheif's own plugin does. */
static struct heif_error to_heif_image(const struct de265_image *picture, struct heif_image **out) {
    int mono = dr_de265.de265_get_chroma_format(picture) == de265_chroma_mono;
    struct heif_error error = dr_heif.heif_image_create(dr_de265.de265_get_image_width(picture, 0), dr_de265.de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                (enum heif_chroma)dr_de265.de265_get_chroma_format(picture), out);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    int bits = dr_de265.de265_get_bits_per_pixel(picture, 0);
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        int width = dr_de265.de265_get_image_width(picture, c), height = dr_de265.de265_get_image_height(picture, c);
        if (dr_de265.de265_get_bits_per_pixel(picture, c) != bits) {
            error = (struct heif_error){heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion,
                                        "HEVC planes of different bit depths"};
        } else if (width <= 0 || height <= 0) {
            error = (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size, "HEVC plane without a size"};
        } else {
            error = dr_heif.heif_image_add_plane(*out, channels[c], width, height, bits);
        }
        if (error.code != heif_error_Ok) {
            dr_heif.heif_image_release(*out);
            *out = NULL;
            return error;
        }
        int from_stride, to_stride;
        const uint8_t *from = dr_de265.de265_get_image_plane(picture, c, &from_stride);
        uint8_t *to = dr_heif.heif_image_get_plane(*out, channels[c], &to_stride);
        size_t row = (size_t)width * (size_t)((bits + 7) / 8);
        for (int y = 0; y < height; y++) memcpy(to + (size_t)to_stride * (size_t)y, from + (size_t)from_stride * (size_t)y, row);
    }
    return ok;
}

/* The stream's own colour description (VUI); libheif replaces it with the item's 'colr' box
 * when the file has one. */
static struct heif_error attach_nclx(const struct de265_image *picture, struct heif_image *image, int strict) {
    struct heif_color_profile_nclx *nclx = dr_heif.heif_nclx_color_profile_alloc();
    if (nclx == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    struct heif_error steps[3] = {
        dr_heif.heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)dr_de265.de265_get_image_colour_primaries(picture)),
        dr_heif.heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)dr_de265.de265_get_image_transfer_characteristics(picture)),
        dr_heif.heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)dr_de265.de265_get_image_matrix_coefficients(picture)),
    };
    for (int i = 0; i < 3; i++) {
        if (steps[i].code == heif_error_Ok) continue;
        if (strict) {
            dr_heif.heif_nclx_color_profile_free(nclx);
            return steps[i];
        }
        dr_heif.heif_image_add_decoding_warning(image, steps[i]);
    }
    nclx->full_range_flag = (uint8_t)(dr_de265.de265_get_image_full_range_flag(picture) != 0);
    struct heif_error error = dr_heif.heif_image_set_nclx_color_profile(image, nclx);
    dr_heif.heif_nclx_color_profile_free(nclx);
    return error;
}

static struct heif_error hevc_decode(void *raw, struct heif_image **out) {
    hevc_decoder *decoder = raw;
    *out = NULL;
    if (decoder->workers == 0 && decoder->pushed >= PARALLEL_MIN_BYTES) {
        decoder->slots = dr_threads_take(worker_count());
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
        struct heif_error error = to_heif_image(picture, out);
        if (error.code == heif_error_Ok) error = attach_nclx(picture, *out, decoder->strict);
        dr_de265.de265_release_next_picture(decoder->context);
        if (error.code != heif_error_Ok) {
            if (*out != NULL) dr_heif.heif_image_release(*out);
            *out = NULL;
            return error;
        }
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

static pthread_once_t register_once = PTHREAD_ONCE_INIT;

/* libheif's plugin list is a plain global set: registered once, before darkroom's first libheif
 * decode (every one goes through dr_heif_*, which call this first). */
static void register_hevc(void) { (void)dr_heif.heif_register_decoder_plugin(&hevc_plugin); }

void dr_heif_register_decoders(void) { pthread_once(&register_once, register_hevc); }
