/*
 * libheif, libde265 and dav1d, opened on first use (heif_library.c): linked, they and the encoders libheif
 * links (x265, libaom, dav1d) would be mapped into every darkroom process, and their constructors
 * cost about 8.5 ms of CPU before main on this machine's kind, for jobs that never see a HEIF or an
 * AVIF. Their headers (libheif-dev, libde265-dev) give the types; the functions are called through
 * `dr_heif` and `dr_de265`, filled by dr_heif_load, which every entry point of heif.c and
 * avif_write.c calls first (heif_hevc.c runs only inside libheif, after that).
 *
 * To call another function: add `X(function)` to DR_HEIF_FUNCTIONS or DR_DE265_FUNCTIONS and call
 * it as `dr_heif.function(…)` or `dr_de265.function(…)`.
 */
#ifndef DARKROOM_HEIF_LIBRARY_H
#define DARKROOM_HEIF_LIBRARY_H

#include <stddef.h>

#include "darkroom_shared_library.h"

#include <dav1d/dav1d.h>
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#define DR_HEIF_FUNCTIONS(X) \
    X(heif_context_add_XMP_metadata) X(heif_context_add_exif_metadata) X(heif_context_alloc) \
    X(heif_context_encode_image) X(heif_context_free) X(heif_context_get_encoder_for_format) \
    X(heif_context_get_number_of_top_level_images) X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_reader) X(heif_context_set_max_decoding_threads) X(heif_context_write) \
    X(heif_context_set_maximum_image_size_limit) X(heif_image_handle_get_ispe_width) X(heif_image_handle_get_ispe_height) \
    X(heif_decode_image) X(heif_decoding_options_alloc) X(heif_decoding_options_free) \
    X(heif_encoder_release) X(heif_encoder_set_lossless) X(heif_encoder_set_lossy_quality) \
    X(heif_encoder_set_parameter_integer) X(heif_encoder_set_parameter_string) \
    X(heif_encoding_options_alloc) X(heif_encoding_options_free) X(heif_image_add_decoding_warning) \
    X(heif_image_add_plane) X(heif_image_create) X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_height) X(heif_image_get_plane) X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) X(heif_image_handle_get_color_profile_type) X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) X(heif_image_handle_get_metadata_content_type) \
    X(heif_image_handle_get_metadata_size) X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_raw_color_profile) X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_width) X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_is_premultiplied_alpha) X(heif_image_handle_release) X(heif_image_release) \
    X(heif_image_set_nclx_color_profile) X(heif_image_set_raw_color_profile) \
    X(heif_nclx_color_profile_alloc) X(heif_nclx_color_profile_free) \
    X(heif_nclx_color_profile_set_color_primaries) X(heif_nclx_color_profile_set_matrix_coefficients) \
    X(heif_nclx_color_profile_set_transfer_characteristics) X(heif_register_decoder_plugin)

#define DR_DE265_FUNCTIONS(X) \
    X(de265_decode) X(de265_flush_data) X(de265_free) X(de265_free_decoder) X(de265_get_bits_per_pixel) \
    X(de265_get_chroma_format) X(de265_get_image_colour_primaries) X(de265_get_image_full_range_flag) \
    X(de265_get_image_height) X(de265_get_image_matrix_coefficients) X(de265_get_image_plane) \
    X(de265_get_image_transfer_characteristics) X(de265_get_image_width) X(de265_get_next_picture) \
    X(de265_init) X(de265_new_decoder) X(de265_push_NAL) X(de265_release_next_picture) \
    X(de265_start_worker_threads)

#define DR_DAV1D_FUNCTIONS(X) \
    X(dav1d_close) X(dav1d_data_create) X(dav1d_data_unref) X(dav1d_default_settings) X(dav1d_get_picture) \
    X(dav1d_open) X(dav1d_picture_unref) X(dav1d_send_data)

DR_SHARED_LIBRARY_TABLE(dr_heif_functions, DR_HEIF_FUNCTIONS);
DR_SHARED_LIBRARY_TABLE(dr_dav1d_functions, DR_DAV1D_FUNCTIONS);
DR_SHARED_LIBRARY_TABLE(dr_de265_functions, DR_DE265_FUNCTIONS);

/* libheif's, libde265's and dav1d's functions; usable once dr_heif_load has returned 0. */
extern dr_heif_functions dr_heif;
extern dr_de265_functions dr_de265;
extern dr_dav1d_functions dr_dav1d;

/* ---- darkroom's decoder plugins (heif_picture.c) ---- */

/* Above libheif's own plugins for HEVC (libde265, priority 100) and AV1 (dav1d 150, aom 100). */
const struct heif_decoder_plugin *dr_hevc_plugin(void);
const struct heif_decoder_plugin *dr_av1_plugin(void);
/* The workers a picture's decoder may ask the compute slots for: the cores this process may run
 * on (taskset, systemd's CPUAffinity=), else those online, at most 8. */
int dr_heif_worker_count(void);
/* Coded data below this is decoded on the caller's thread: workers cost more than they save. */
enum { DR_HEIF_PARALLEL_MIN_BYTES = 8 * 1024 };

/* The largest picture a stream decoded on this thread may declare, each side and in all (0: no
 * limit); heif.c sets it around each decode, from the image and the job's pixel limit. */
void dr_heif_limit_pictures(uint32_t max_side, uint64_t max_pixels);
/* The pixel limit alone, for a decoder that enforces it itself (dav1d's frame_size_limit). */
uint64_t dr_heif_pixel_limit(void);
/* heif_error_Ok, or a security-limit error naming the codec when the picture is over the limit. */
struct heif_error dr_heif_check_picture_size(uint32_t width, uint32_t height, const char *codec);

/* A decoded picture as a plugin's decoder hands it out: planes Y, Cb, Cr (Y alone for monochrome). */
typedef struct {
    int width, height, bits;
    enum heif_chroma chroma;
    const uint8_t *planes[3];
    ptrdiff_t strides[3];
    int plane_width[3], plane_height[3];
    int primaries, transfer, matrix, full_range; /* the stream's colour description (ITU-T H.273 codes) */
} dr_coded_picture;

/* The picture copied into a new heif_image with its colour description attached; on an error
 * *out is NULL. */
struct heif_error dr_heif_picture_image(const dr_coded_picture *picture, int strict, struct heif_image **out);

/* Loads the tables once; 0, or -1 with the reason (naming the Debian package) in `message`. */
int dr_heif_load(char *message, size_t capacity);

#endif
