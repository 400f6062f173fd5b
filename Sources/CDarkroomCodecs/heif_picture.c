/*
 * What darkroom's two libheif decoder plugins share (heif_hevc.c with libde265, heif_av1.c with
 * dav1d): their registration, how many workers a picture may have, the limit on the pictures a stream may declare, and the decoded picture handed to
 * libheif, built as libheif's own plugins build it (YCbCr planes copied out, the stream's colour
 * description attached as nclx), so libheif's colour conversion, grids and alpha work as before.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "heif_library.h"
#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Neither decoder gains much on a single picture beyond a few cores. */
enum { MAX_WORKERS = 8 };

int dr_heif_worker_count(void) {
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > MAX_WORKERS ? MAX_WORKERS : (int)cores;
}

static pthread_once_t register_once = PTHREAD_ONCE_INIT;

/* libheif's plugin list is a plain global set: registered once, before darkroom's first libheif
 * decode (every one goes through dr_heif_*, which call this first). */
static void register_plugins(void) {
    (void)dr_heif.heif_register_decoder_plugin(dr_hevc_plugin());
    (void)dr_heif.heif_register_decoder_plugin(dr_av1_plugin());
}

void dr_heif_register_decoders(void) { pthread_once(&register_once, register_plugins); }

/* Per thread: libheif decodes every item on the thread that asked (heif.c sets no tile threads). */
static _Thread_local uint32_t limit_side;
static _Thread_local uint64_t limit_pixels;

void dr_heif_limit_pictures(uint32_t max_side, uint64_t max_pixels) {
    limit_side = max_side;
    limit_pixels = max_pixels;
}

uint64_t dr_heif_pixel_limit(void) { return limit_pixels; }

struct heif_error dr_heif_check_picture_size(uint32_t width, uint32_t height, const char *codec) {
    static _Thread_local char text[160]; /* libheif copies an error's message */
    if ((limit_side == 0 || (width <= limit_side && height <= limit_side)) &&
        (limit_pixels == 0 || (uint64_t)width * height <= limit_pixels))
        return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, "Success"};
    snprintf(text, sizeof text, "an %s stream in it declares a %u×%u picture: over the limit of %llu pixels, %u a side",
             codec, width, height, (unsigned long long)limit_pixels, limit_side);
    return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded, text};
}

/* The stream's own colour description; libheif replaces it with the item's 'colr' box when the
 * file has one. A value libheif does not know is a warning, or the error in strict decoding. */
static struct heif_error attach_nclx(const dr_coded_picture *picture, struct heif_image *image, int strict) {
    struct heif_color_profile_nclx *nclx = dr_heif.heif_nclx_color_profile_alloc();
    if (nclx == NULL) return (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    struct heif_error steps[3] = {
        dr_heif.heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)picture->primaries),
        dr_heif.heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)picture->transfer),
        dr_heif.heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)picture->matrix),
    };
    for (int i = 0; i < 3; i++) {
        if (steps[i].code == heif_error_Ok) continue;
        if (strict) {
            dr_heif.heif_nclx_color_profile_free(nclx);
            return steps[i];
        }
        dr_heif.heif_image_add_decoding_warning(image, steps[i]);
    }
    nclx->full_range_flag = (uint8_t)(picture->full_range != 0);
    struct heif_error error = dr_heif.heif_image_set_nclx_color_profile(image, nclx);
    dr_heif.heif_nclx_color_profile_free(nclx);
    return error;
}

struct heif_error dr_heif_picture_image(const dr_coded_picture *picture, int strict, struct heif_image **out) {
    int mono = picture->chroma == heif_chroma_monochrome;
    struct heif_error error = dr_heif.heif_image_create(picture->width, picture->height,
                                                        mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, picture->chroma, out);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int c = 0; c < (mono ? 1 : 3) && error.code == heif_error_Ok; c++) {
        int width = picture->plane_width[c], height = picture->plane_height[c];
        if (width <= 0 || height <= 0 || picture->planes[c] == NULL) {
            error = (struct heif_error){heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size, "a decoded plane without a size"};
            break;
        }
        error = dr_heif.heif_image_add_plane(*out, channels[c], width, height, picture->bits);
        if (error.code != heif_error_Ok) break;
        int to_stride;
        uint8_t *to = dr_heif.heif_image_get_plane(*out, channels[c], &to_stride);
        size_t row = (size_t)width * (size_t)((picture->bits + 7) / 8);
        for (int y = 0; y < height; y++)
            memcpy(to + (size_t)to_stride * (size_t)y, picture->planes[c] + picture->strides[c] * (ptrdiff_t)y, row);
    }
    if (error.code == heif_error_Ok) error = attach_nclx(picture, *out, strict);
    if (error.code != heif_error_Ok) {
        dr_heif.heif_image_release(*out);
        *out = NULL;
    }
    return error;
}
