/*
 * HEIF (HEIC) and AVIF input through libheif: the primary image, decoded whole (libheif has no
 * row-wise decoding; the decoded image is counted in the job's memory estimate), then handed
 * out row by row. libheif applies the image's rotation and mirror (irot, imir) and clean
 * aperture while decoding, as the HEIF spec makes them part of the image (info->oriented; the
 * EXIF Orientation a phone also writes is only informative there). 10- and 12-bit images are
 * delivered as 16-bit samples. An ICC profile ('prof'/'rICC') converts as in every format; an
 * nclx colour description with wide-gamut primaries (Display P3, BT.2020) and an sRGB or
 * BT.709 tone curve is turned into an equivalent ICC profile with Little CMS and converted the
 * same way. libheif returns errors as values; nothing longjmps or prints. HEVC is decoded by
 * darkroom's libde265 plugin (heif_hevc.c: a worker thread per core, where libheif's own has
 * one), and the picture is taken as libheif's RGB planes and interleaved row by row here.
 *
 * The job's deadline: libheif 1.15 has no way to stop a decode, but it reads each coded item
 * (a grid tile's HEVC/AV1 data, or the whole picture's) through the reader it was given, just
 * before decoding it, first asking the reader whether that much of the file is there. Once the
 * deadline has passed, darkroom's reader answers "not yet" (the timeout of a file still being
 * downloaded, which libheif turns into an ordinary error; refusing the read itself would trip
 * an assertion in libheif), so a grid image (every phone HEIC: 512×512 tiles) stops before its
 * next tile, and the job reports the timeout. What one decoder call does is not bounded: a
 * single tile, or a picture that is not a grid (its size bounded by max_pixels), and the colour
 * conversion libheif makes of the assembled image.
 */
#include "heif_library.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include <lcms2.h>

static dr_status status_of(struct heif_error error) {
    switch (error.code) {
    case heif_error_Ok: return DR_OK;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
    case heif_error_Plugin_loading_error: return DR_UNSUPPORTED;
    case heif_error_Memory_allocation_error:
        return error.subcode == heif_suberror_Security_limit_exceeded ? DR_TOO_LARGE : DR_OUT_OF_MEMORY;
    case heif_error_Invalid_input:
        if (error.subcode == heif_suberror_End_of_data) return DR_TRUNCATED;
        if (error.subcode == heif_suberror_Security_limit_exceeded) return DR_TOO_LARGE;
        return DR_CORRUPT;
    case heif_error_Decoder_plugin_error:
        return error.subcode == heif_suberror_End_of_data ? DR_TRUNCATED : DR_CORRUPT;
    default: return DR_CORRUPT;
    }
}

static dr_status heif_failure(struct heif_error error, char *message, size_t capacity) {
    dr_status status = status_of(error);
    const char *limit = error.message != NULL ? strstr(error.message, "Security limit exceeded: ") : NULL;
    if (status == DR_TRUNCATED)
        dr_set_message(message, capacity, "HEIF data ends early (truncated file?): %s", error.message);
    else if (status == DR_TOO_LARGE && limit != NULL) /* libheif's words for its error code add nothing */
        dr_set_message(message, capacity, "HEIF: %s", limit + strlen("Security limit exceeded: "));
    else
        dr_set_message(message, capacity, "HEIF: %s", error.message ? error.message : "unreadable");
    size_t end = capacity > 0 ? strlen(message) : 0; /* libheif ends some messages with a newline */
    while (end > 0 && (message[end - 1] == '\n' || message[end - 1] == ' ')) message[--end] = '\0';
    return status == DR_OK ? DR_CORRUPT : status;
}

/* An ICC profile equivalent to an nclx description darkroom converts (NULL: sRGB already, or a
 * tone curve it does not convert, such as PQ or HLG). */
static cmsHPROFILE nclx_profile(const struct heif_color_profile_nclx *nclx) {
    int primaries = nclx->color_primaries;
    if (primaries == heif_color_primaries_ITU_R_BT_709_5 || primaries == heif_color_primaries_unspecified) return NULL;
    cmsToneCurve *curve;
    switch (nclx->transfer_characteristics) {
    case heif_transfer_characteristic_IEC_61966_2_1:
    case heif_transfer_characteristic_unspecified: {
        cmsFloat64Number srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
        break;
    }
    case heif_transfer_characteristic_ITU_R_BT_709_5:
    case heif_transfer_characteristic_ITU_R_BT_601_6:
    case heif_transfer_characteristic_ITU_R_BT_2020_2_10bit:
    case heif_transfer_characteristic_ITU_R_BT_2020_2_12bit: {
        cmsFloat64Number rec709[5] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
        curve = cmsBuildParametricToneCurve(NULL, 4, rec709);
        break;
    }
    default: return NULL;
    }
    if (curve == NULL) return NULL;
    cmsCIExyY white = {nclx->color_primary_white_x, nclx->color_primary_white_y, 1};
    cmsCIExyYTRIPLE xyY = {{nclx->color_primary_red_x, nclx->color_primary_red_y, 1},
                           {nclx->color_primary_green_x, nclx->color_primary_green_y, 1},
                           {nclx->color_primary_blue_x, nclx->color_primary_blue_y, 1}};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &xyY, curves);
    cmsFreeToneCurve(curve);
    if (profile != NULL) {
        cmsMLU *description = cmsMLUalloc(NULL, 1);
        if (description != NULL) {
            cmsMLUsetASCII(description, "en", "US", primaries == heif_color_primaries_SMPTE_EG_432_1 ? "nclx Display P3"
                                                   : primaries == heif_color_primaries_ITU_R_BT_2020_2_and_2100_0 ? "nclx BT.2020"
                                                                                                                  : "nclx RGB");
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
            cmsMLUfree(description);
        }
    }
    return profile;
}

/* The image's colour as an ICC profile in info->icc, when it has one worth converting. */
static dr_status store_colour(const struct heif_image_handle *handle, dr_info *info) {
    enum heif_color_profile_type type = dr_heif.heif_image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        size_t size = dr_heif.heif_image_handle_get_raw_color_profile_size(handle);
        unsigned char *profile = size > 0 ? malloc(size) : NULL;
        if (size > 0 && profile == NULL) return DR_OUT_OF_MEMORY;
        if (profile != NULL && dr_heif.heif_image_handle_get_raw_color_profile(handle, profile).code == heif_error_Ok) {
            info->has_icc = 1;
            info->icc = profile;
            info->icc_length = size;
        } else {
            free(profile);
        }
        return DR_OK;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    /* libheif allocates the profile before it checks its values: an unknown primaries code comes
     * back as an error with the profile still to free (a leak fuzzing found). */
    struct heif_error nclx_error = dr_heif.heif_image_handle_get_nclx_color_profile(handle, &nclx);
    if (nclx_error.code != heif_error_Ok || nclx == NULL) {
        if (nclx != NULL) dr_heif.heif_nclx_color_profile_free(nclx);
        return DR_OK;
    }
    cmsHPROFILE profile = nclx_profile(nclx);
    dr_heif.heif_nclx_color_profile_free(nclx);
    if (profile == NULL) return DR_OK;
    cmsUInt32Number size = 0;
    dr_status status = DR_OK;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0) {
        info->icc = malloc(size);
        if (info->icc == NULL) status = DR_OUT_OF_MEMORY;
        else if (cmsSaveProfileToMem(profile, info->icc, &size)) info->icc_length = size;
        else { free(info->icc); info->icc = NULL; }
    }
    cmsCloseProfile(profile);
    return status;
}

/* The Exif items (a 4-byte offset to the TIFF header, then the block) and XMP ("mime" items of
 * type application/rdf+xml). */
static void collect_metadata(const struct heif_image_handle *handle, dr_info *info) {
    heif_item_id ids[8];
    int n = dr_heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", ids, 8);
    for (int i = 0; i < n; i++) {
        size_t size = dr_heif.heif_image_handle_get_metadata_size(handle, ids[i]);
        unsigned char *block = size >= 4 ? malloc(size) : NULL;
        if (block == NULL) continue;
        if (dr_heif.heif_image_handle_get_metadata(handle, ids[i], block).code == heif_error_Ok) {
            size_t skip = 4 + ((size_t)block[0] << 24 | (size_t)block[1] << 16 | (size_t)block[2] << 8 | block[3]);
            if (skip < size) {
                dr_info_store_exif(info, block + skip, size - skip);
                if (info->metadata != NULL)
                    dr_metadata_keep(&info->metadata->exif, &info->metadata->exif_length, block + skip, size - skip);
            }
        }
        free(block);
        break;
    }
    if (info->metadata == NULL) return;
    n = dr_heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", ids, 8);
    for (int i = 0; i < n; i++) {
        const char *type = dr_heif.heif_image_handle_get_metadata_content_type(handle, ids[i]);
        if (type == NULL || strcmp(type, "application/rdf+xml") != 0) continue;
        size_t size = dr_heif.heif_image_handle_get_metadata_size(handle, ids[i]);
        unsigned char *block = size > 0 ? malloc(size) : NULL;
        if (block != NULL && dr_heif.heif_image_handle_get_metadata(handle, ids[i], block).code == heif_error_Ok)
            dr_metadata_keep(&info->metadata->xmp, &info->metadata->xmp_length, block, size);
        free(block);
        break;
    }
}

/* The file in memory as libheif's reader reads it, holding item data back once `deadline_ns`
 * has passed. */
typedef struct {
    const unsigned char *bytes;
    size_t length, position;
    uint64_t deadline_ns; /* 0: none */
    int expired;          /* a read was refused for the deadline */
} heif_input;

static int64_t input_position(void *user) { return (int64_t)((heif_input *)user)->position; }

static int input_read(void *into, size_t size, void *user) {
    heif_input *in = user;
    if (size > in->length - in->position) return -1;
    memcpy(into, in->bytes + in->position, size);
    in->position += size;
    return 0;
}

static int input_seek(int64_t position, void *user) {
    heif_input *in = user;
    if (position < 0 || (uint64_t)position > in->length) return -1;
    in->position = (size_t)position;
    return 0;
}

/* libheif asks this before every read of an item's data (iloc extents, idat) and turns
 * "timeout" into an ordinary error; a read that fails after "size reached" would instead trip one
 * of its assertions, so the deadline is enforced here and never in input_read. libheif calls
 * this under its own mutex, also when tiles decode in parallel. */
static enum heif_reader_grow_status input_wait(int64_t size, void *user) {
    heif_input *in = user;
    if (size < 0 || (uint64_t)size > in->length) return heif_reader_grow_status_size_beyond_eof;
    if (in->deadline_ns != 0 && dr_monotonic_ns() > in->deadline_ns) {
        in->expired = 1;
        return heif_reader_grow_status_timeout;
    }
    return heif_reader_grow_status_size_reached;
}

static const struct heif_reader input_reader = {
    .reader_api_version = 1,
    .get_position = input_position,
    .read = input_read,
    .seek = input_seek,
    .wait_for_file_size = input_wait,
};

/* Opens the file (read in place through `input`, which must outlive the context) and its primary
 * image and describes it; the caller frees both. */
static dr_status open_primary(heif_input *input, dr_info *info, struct heif_context **context,
                              struct heif_image_handle **handle, char *message, size_t capacity) {
    const unsigned char *bytes = input->bytes;
    size_t length = input->length;
    *context = dr_heif.heif_context_alloc();
    *handle = NULL;
    if (*context == NULL) return DR_OUT_OF_MEMORY;
    /* Tiles on the calling thread, one after another: each tile's decoder has its workers from
     * the compute slots (heif_hevc.c), where libheif's own tile threads would be beyond them. */
    dr_heif.heif_context_set_max_decoding_threads(*context, 0);
    struct heif_error error = dr_heif.heif_context_read_from_reader(*context, &input_reader, input, NULL);
    if (error.code != heif_error_Ok) return heif_failure(error, message, capacity);
    error = dr_heif.heif_context_get_primary_image_handle(*context, handle);
    if (error.code != heif_error_Ok) return heif_failure(error, message, capacity);
    info->format = dr_sniff(bytes, length) == DR_FORMAT_AVIF ? DR_FORMAT_AVIF : DR_FORMAT_HEIF;
    info->width = dr_heif.heif_image_handle_get_width(*handle);
    info->height = dr_heif.heif_image_handle_get_height(*handle);
    info->has_alpha = dr_heif.heif_image_handle_has_alpha_channel(*handle);
    int bits = dr_heif.heif_image_handle_get_luma_bits_per_pixel(*handle);
    info->bit_depth = bits > 0 ? bits : 8;
    info->channels = info->has_alpha ? 4 : 3;
    info->color_space = DR_SPACE_RGB;
    info->oriented = 1;
    int images = dr_heif.heif_context_get_number_of_top_level_images(*context);
    info->pages = images > 1 ? images : 1;
    if (info->width <= 0 || info->height <= 0) {
        dr_set_message(message, capacity, "HEIF: the primary image has no size");
        return DR_CORRUPT;
    }
    if (store_colour(*handle, info) != DR_OK) {
        dr_set_message(message, capacity, "out of memory reading a HEIF colour profile");
        return DR_OUT_OF_MEMORY;
    }
    collect_metadata(*handle, info);
    return DR_OK;
}

dr_status dr_heif_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity) {
    struct heif_context *context;
    struct heif_image_handle *handle;
    heif_input input = {.bytes = bytes, .length = length};
    if (dr_heif_load(message, capacity)) return DR_UNSUPPORTED;
    dr_heif_register_decoders();
    dr_status status = open_primary(&input, info, &context, &handle, message, capacity);
    if (handle != NULL) dr_heif.heif_image_handle_release(handle);
    dr_heif.heif_context_free(context);
    return status;
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    struct heif_image *image;
    /* libheif's image as it leaves its decoding: one plane per channel (R, G, B, alpha). Asking
     * for these planes, rather than interleaved RGB, spares libheif a second pass over the
     * whole picture (and a second picture in memory): the rows are interleaved here. */
    const unsigned char *planes[4];
    int strides[4];
    int bits;        /* per sample of the decoded planes: 8, 10 or 12 */
    int premultiplied;
    int next_row, crop_x, crop_y;
    uint64_t deadline_ns;
} heif_reader;

static void heif_reader_close(dr_reader *base) {
    heif_reader *r = (heif_reader *)base;
    if (r->image != NULL) dr_heif.heif_image_release(r->image);
    dr_color_converter_free(r->base.color);
    free(r);
}

/* One row of 8-bit planes interleaved (3 or 4 channels). */
static void interleave_8(const void *const planes[4], int channels, size_t width, unsigned char *to) {
    const unsigned char *r = planes[0], *g = planes[1], *b = planes[2], *a = planes[3];
    if (channels == 3) {
        for (size_t x = 0; x < width; x++, to += 3) { to[0] = r[x]; to[1] = g[x]; to[2] = b[x]; }
    } else {
        for (size_t x = 0; x < width; x++, to += 4) { to[0] = r[x]; to[1] = g[x]; to[2] = b[x]; to[3] = a[x]; }
    }
}

/* One row of 10/12-bit planes (native-endian 16-bit words) interleaved at the full 16-bit range. */
static void interleave_deep(const void *const planes[4], int channels, size_t width, int bits, unsigned char *to) {
    uint16_t *o = (uint16_t *)(void *)to;
    uint32_t max = (1u << bits) - 1;
    for (int c = 0; c < channels; c++) {
        const uint16_t *s = planes[c];
        for (size_t x = 0; x < width; x++) {
            uint32_t v = s[x] > max ? max : s[x];
            o[x * (size_t)channels + (size_t)c] = (uint16_t)((v * 65535u + max / 2) / max);
        }
    }
}

static dr_status heif_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count,
                                char *message, size_t capacity) {
    heif_reader *r = (heif_reader *)base;
    if (r->deadline_ns != 0 && dr_monotonic_ns() > r->deadline_ns) {
        dr_set_message(message, capacity, "decoding ran past the time limit");
        return DR_CANCELLED;
    }
    if (r->next_row + count > r->base.height) {
        dr_set_message(message, capacity, "HEIF: more rows asked for than the image has");
        return DR_CORRUPT;
    }
    int channels = r->base.channels;
    size_t width = (size_t)r->base.width;
    for (int i = 0; i < count; i++, r->next_row++) {
        unsigned char *target = rows + stride * (size_t)i;
        size_t y = (size_t)(r->crop_y + r->next_row);
        const void *from[4] = {NULL, NULL, NULL, NULL};
        for (int c = 0; c < channels; c++)
            from[c] = r->planes[c] + (size_t)r->strides[c] * y + (size_t)r->crop_x * (r->bits <= 8 ? 1 : 2);
        if (r->bits <= 8) interleave_8(from, channels, width, target);
        else interleave_deep(from, channels, width, r->bits, target);
        if (r->premultiplied && channels == 4) dr_unpremultiply(target, (size_t)r->base.width, r->base.bytes_per_sample);
        if (r->base.color != NULL) dr_color_converter_rows(r->base.color, target, (size_t)r->base.width);
    }
    return DR_OK;
}

/* Bounds what decoding the image may allocate, past the pixel limit its shown size has passed: a
 * clean aperture ('clap') can show a small crop of a huge coded image, and the items a grid or
 * overlay is built from state their own sizes (their canvases and the pictures their HEVC streams
 * declare), which libheif allocates as stated. No part of a real file is larger than the image
 * by more than a tile, so libheif's per-side limit (32768) becomes the image's side plus 1024, and
 * darkroom's HEVC and AV1 decoders refuse pictures beyond that or the pixel limit (heif_hevc.c,
 * heif_av1.c). */
static dr_status limit_coded_sizes(struct heif_context *context, const struct heif_image_handle *handle,
                                   const dr_info *info, uint64_t max_pixels, char *message, size_t capacity) {
    int width = dr_heif.heif_image_handle_get_ispe_width(handle), height = dr_heif.heif_image_handle_get_ispe_height(handle);
    if (width <= 0 || height <= 0) { width = info->width; height = info->height; }
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        dr_set_message(message, capacity, "HEIF: the image is coded at %d×%d pixels (shown cropped to %d×%d), over the limit of %llu pixels",
                       width, height, info->width, info->height, (unsigned long long)max_pixels);
        return DR_TOO_LARGE;
    }
    int longest = width > height ? width : height;
    if (info->width > longest) longest = info->width;
    if (info->height > longest) longest = info->height;
    uint32_t side = (uint32_t)longest + 1024 < 32768 ? (uint32_t)longest + 1024 : 32768;
    dr_heif.heif_context_set_maximum_image_size_limit(context, (int)side);
    dr_heif_limit_pictures(side, max_pixels);
    return DR_OK;
}

dr_status dr_heif_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **out, char *message, size_t capacity) {
    struct heif_context *context;
    struct heif_image_handle *handle;
    heif_input input = {.bytes = bytes, .length = length};
    if (dr_heif_load(message, capacity)) return DR_UNSUPPORTED;
    dr_heif_register_decoders();
    dr_status status = open_primary(&input, info, &context, &handle, message, capacity);
    input.deadline_ns = options->deadline_ns; /* from here on, reads fetch coded image data */
    if (status == DR_OK && !dr_fits(info, options->max_pixels))
        status = dr_too_large(info, options->max_pixels, message, capacity);
    if (status == DR_OK) status = dr_heif_check_references(bytes, length, message, capacity);
    if (status == DR_OK) status = limit_coded_sizes(context, handle, info, options->max_pixels, message, capacity);
    if (status == DR_OK) status = dr_heif_check_canvases(bytes, length, options->max_pixels, message, capacity);
    heif_reader *r = status == DR_OK ? calloc(1, sizeof *r) : NULL;
    if (status == DR_OK && r == NULL) status = DR_OUT_OF_MEMORY;
    if (status == DR_OK) {
        struct heif_decoding_options *decoding = dr_heif.heif_decoding_options_alloc();
        if (decoding != NULL) decoding->convert_hdr_to_8bit = 0;
        struct heif_error error = dr_heif.heif_decode_image(handle, &r->image, heif_colorspace_RGB, heif_chroma_444, decoding);
        dr_heif.heif_decoding_options_free(decoding);
        if (error.code != heif_error_Ok && input.expired) {
            dr_set_message(message, capacity, "decoding ran past the time limit (HEIF: stopped before its next coded item)");
            status = DR_CANCELLED;
        } else if (error.code != heif_error_Ok) {
            status = heif_failure(error, message, capacity);
            /* limit_coded_sizes's bounds: say what they stand for */
            if (status == DR_TOO_LARGE && strncmp(message, "HEIF: Image size ", 17) == 0) {
                char detail[160];
                snprintf(detail, sizeof detail, "%s", message + 6);
                dr_set_message(message, capacity, "HEIF: a part of the %d×%d image states a larger size (%s)",
                               info->width, info->height, detail);
            }
        } else {
            static const enum heif_channel order[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
            r->bits = dr_heif.heif_image_get_bits_per_pixel_range(r->image, heif_channel_R);
            for (int c = 0; c < (info->has_alpha ? 4 : 3) && status == DR_OK; c++) {
                r->planes[c] = dr_heif.heif_image_get_plane_readonly(r->image, order[c], &r->strides[c]);
                if (r->planes[c] == NULL || dr_heif.heif_image_get_width(r->image, order[c]) != info->width ||
                    dr_heif.heif_image_get_height(r->image, order[c]) != info->height ||
                    dr_heif.heif_image_get_bits_per_pixel_range(r->image, order[c]) != r->bits) {
                    dr_set_message(message, capacity, "HEIF: the decoded image does not match its header");
                    status = DR_CORRUPT;
                }
            }
        }
        r->premultiplied = dr_heif.heif_image_handle_is_premultiplied_alpha(handle);
    }
    dr_heif_limit_pictures(0, 0);
    if (handle != NULL) dr_heif.heif_image_handle_release(handle);
    dr_heif.heif_context_free(context); /* the decoded image lives on its own */
    if (status != DR_OK) {
        if (r != NULL) heif_reader_close(&r->base);
        return status;
    }
    r->base.format = info->format;
    r->base.read_rows = heif_read_rows;
    r->base.close = heif_reader_close;
    r->base.bytes = bytes;
    r->deadline_ns = options->deadline_ns;
    dr_reader_window(&r->base, options, info, &r->crop_x, &r->crop_y);
    r->base.channels = info->has_alpha ? 4 : 3;
    r->base.bytes_per_sample = r->bits > 8 ? 2 : 1;
    r->base.color = dr_reader_color_setup(&r->base, info, options, DR_SPACE_RGB, r->base.channels, 0);
    memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}
