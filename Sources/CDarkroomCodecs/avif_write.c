/*
 * AVIF output through libheif and its libaom encoder. AV1 encodes a whole image at once, so the
 * rows go into a libheif image as they come (the only copy) and are encoded at finish. 8-bit
 * only: libheif 1.15 with libaom 3.6 (Debian 12) aborts the process on every 10-bit encode
 * (strukturag/libheif#788), so 10-bit AVIF is written through libavif (avif10_write.c).
 */
#include "heif_library.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>


typedef struct {
    dr_writer base; /* first: the generic writer */
    struct heif_image *image;
    unsigned char *plane;
    int stride, width, height, channels, written;
    int quality, speed, orientation;
    dr_status status;
    dr_metadata metadata; /* copies, owned */
} avif_writer;

static void avif_writer_close(dr_writer *base) {
    avif_writer *w = (avif_writer *)base;
    if (w->image != NULL) dr_heif.heif_image_release(w->image);
    dr_metadata_free(&w->metadata);
    free(w);
}

static dr_status avif_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                              char *message, size_t capacity) {
    avif_writer *w = (avif_writer *)base;
    if (w->status != DR_OK) return w->status;
    struct heif_error error = dr_heif.heif_image_set_raw_color_profile(w->image, "prof", profile, length);
    if (error.code != heif_error_Ok) {
        dr_set_message(message, capacity, "%s", error.message);
        return DR_UNSUPPORTED;
    }
    return DR_OK;
}

static dr_status avif_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                                 char *message, size_t capacity) {
    avif_writer *w = (avif_writer *)base;
    if (w->status != DR_OK) return w->status;
    if (w->written + count > w->height) return dr_fail(&w->status, message, capacity, DR_ENCODE_FAILED, "AVIF: more rows than the image has");
    size_t row_bytes = (size_t)w->width * (size_t)w->channels;
    for (int i = 0; i < count; i++)
        memcpy(w->plane + (size_t)w->stride * (size_t)(w->written + i), rows + stride * (size_t)i, row_bytes);
    w->written += count;
    return DR_OK;
}

static struct heif_error append(struct heif_context *context, const void *data, size_t size, void *user) {
    (void)context;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    struct heif_error fail = {heif_error_Encoding_error, heif_suberror_Cannot_write_output_data, "out of memory"};
    return dr_buffer_append(user, data, size) ? ok : fail;
}

static dr_status encode(avif_writer *w, struct heif_context *context, dr_buffer *out, char *message, size_t capacity) {
    struct heif_encoder *encoder = NULL;
    struct heif_error error = dr_heif.heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder);
    if (error.code != heif_error_Ok) {
        dr_set_message(message, capacity, "AVIF: no AV1 encoder in libheif (%s)", error.message);
        return DR_UNSUPPORTED;
    }
    dr_heif.heif_encoder_set_lossy_quality(encoder, w->quality);
    dr_heif.heif_encoder_set_lossless(encoder, 0);
    dr_heif.heif_encoder_set_parameter_integer(encoder, "speed", w->speed);
    /* 4:2:0 as libvips' heifsave below quality 90, full chroma above. */
    dr_heif.heif_encoder_set_parameter_string(encoder, "chroma", w->quality >= 90 ? "444" : "420");
    struct heif_image_handle *handle = NULL;
    /* Rows left as stored (auto_orient: false) keep their orientation as irot/imir, which HEIF
     * readers apply; libheif writes the boxes (and follows the spec's imir axis itself). */
    struct heif_encoding_options *encoding = dr_heif.heif_encoding_options_alloc();
    if (encoding != NULL) encoding->image_orientation = (enum heif_orientation)w->orientation;
    error = dr_heif.heif_context_encode_image(context, w->image, encoder, encoding, &handle);
    dr_heif.heif_encoding_options_free(encoding);
    dr_heif.heif_encoder_release(encoder);
    if (error.code == heif_error_Ok && w->metadata.exif != NULL)
        error = dr_heif.heif_context_add_exif_metadata(context, handle, w->metadata.exif, (int)w->metadata.exif_length);
    if (error.code == heif_error_Ok && w->metadata.xmp != NULL)
        error = dr_heif.heif_context_add_XMP_metadata(context, handle, w->metadata.xmp, (int)w->metadata.xmp_length);
    if (handle != NULL) dr_heif.heif_image_handle_release(handle);
    if (error.code == heif_error_Ok) {
        struct heif_writer writer = {1, append};
        error = dr_heif.heif_context_write(context, &writer, out);
    }
    if (error.code != heif_error_Ok) {
        dr_buffer_free(out);
        dr_set_message(message, capacity, "AVIF: %s", error.message);
        return error.code == heif_error_Memory_allocation_error ? DR_OUT_OF_MEMORY : DR_ENCODE_FAILED;
    }
    return DR_OK;
}

static dr_status avif_finish(dr_writer *base, dr_buffer *out, char *message, size_t capacity) {
    avif_writer *w = (avif_writer *)base;
    memset(out, 0, sizeof *out);
    if (w->status != DR_OK) return w->status;
    if (w->written != w->height) {
        dr_set_message(message, capacity, "AVIF: %d of %d rows were written", w->written, w->height);
        return w->status = DR_ENCODE_FAILED;
    }
    struct heif_context *context = dr_heif.heif_context_alloc();
    if (context == NULL) return dr_fail(&w->status, message, capacity, DR_OUT_OF_MEMORY, "out of memory encoding AVIF");
    w->status = encode(w, context, out, message, capacity);
    dr_heif.heif_context_free(context);
    return w->status;
}

/* The options within their ranges, as both depths' writers take them. */
static dr_avif_write_options clamped(const dr_avif_write_options *o) {
    dr_avif_write_options c = *o;
    c.channels = o->channels == 4 ? 4 : 3;
    c.quality = o->quality < 0 ? 0 : o->quality > 100 ? 100 : o->quality;
    c.speed = o->speed < 0 ? 0 : o->speed > 9 ? 9 : o->speed;
    c.orientation = o->orientation >= 1 && o->orientation <= 8 ? o->orientation : 1;
    return c;
}

dr_status dr_avif_writer_open(int width, int height, const dr_avif_write_options *requested,
                              const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    dr_avif_write_options options = clamped(requested);
    if (options.bit_depth == 10) return dr_avif10_writer_open(width, height, &options, metadata, out, message, capacity);
    if (options.bit_depth != 8) {
        dr_set_message(message, capacity, "AVIF is written 8- or 10-bit, not %d-bit", options.bit_depth);
        return DR_UNSUPPORTED;
    }
    if (dr_heif_load(message, capacity)) return DR_UNSUPPORTED;
    avif_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->base.format = DR_FORMAT_AVIF;
    w->base.set_icc = avif_set_icc;
    w->base.write_rows = avif_write_rows;
    w->base.finish = avif_finish;
    w->base.close = avif_writer_close;
    w->width = width;
    w->height = height;
    w->channels = options.channels;
    w->quality = options.quality;
    w->speed = options.speed;
    w->orientation = options.orientation;
    struct heif_error error = dr_heif.heif_image_create(width, height, heif_colorspace_RGB,
                                                        w->channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                        &w->image);
    if (error.code == heif_error_Ok) error = dr_heif.heif_image_add_plane(w->image, heif_channel_interleaved, width, height, 8);
    if (error.code == heif_error_Ok) w->plane = dr_heif.heif_image_get_plane(w->image, heif_channel_interleaved, &w->stride);
    if (error.code != heif_error_Ok || w->plane == NULL) {
        dr_set_message(message, capacity, "AVIF: %s", error.code != heif_error_Ok ? error.message : "no image plane");
        avif_writer_close(&w->base);
        return DR_ENCODE_FAILED;
    }
    if (metadata != NULL) {
        dr_metadata_keep(&w->metadata.exif, &w->metadata.exif_length, metadata->exif, metadata->exif_length);
        dr_metadata_keep(&w->metadata.xmp, &w->metadata.xmp_length, metadata->xmp, metadata->xmp_length);
    }
    *out = &w->base;
    return DR_OK;
}
