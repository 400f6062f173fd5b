/*
 * Camera RAW input through libraw (its thread-safe build, libraw_r): the file is opened in place
 * through its descriptor (libraw reads /proc/self/fd/N, the same open file, so a 25–60 MB file is
 * not held in memory beside libraw's own images; bytes in memory are copied into a memfd once and
 * read the same way), unpacked, developed whole (dcraw_process: black and white levels, the white balance
 * asked for, AHD demosaicing, the camera's colour matrix to sRGB with the sRGB tone curve, and
 * libraw's automatic brightness, as dcraw and dcraw_emu do) into an 8- or 16-bit RGB image, then
 * handed out row by row. libraw holds the raw samples, its 4 × 16-bit working image and the
 * developed one at once; ImageDecoder.heldBytes counts them in the job's estimate.
 *
 * - Shrink-on-load: shrink 2 or more asks for libraw's half-size decode (each 2×2 block of the
 *   sensor gives one pixel, no demosaicing): a quarter of the working image, several times faster.
 * - Orientation: libraw is told not to turn the image (user_flip 0); the orientation it read
 *   (from the maker's own tags where a format keeps it there) is the format's own
 *   (info->orientation), and darkroom turns the image upright as it does a JPEG's.
 * - EXIF: a TIFF-based RAW's IFD0 picture tags and EXIF and GPS IFDs, copied as a TIFF's are
 *   (tiff_exif.c); for the others, a block made from what libraw read (raw_exif.c).
 * - raw_preview: the embedded JPEG preview (libraw's largest thumbnail) decoded through the
 *   JPEG reader, with its DCT shrink; when the file holds none, the raw data is developed and
 *   the reader says so in its warning.
 * - Threads: Debian's libraw is built with OpenMP. Its parallel loops get the calling thread
 *   plus the compute slots free at the time (threads.c), set per call with
 *   omp_set_num_threads, so a RAW decode never runs more threads than darkroom's budget allows.
 *   libgomp keeps a finished loop's threads parked (asleep) for the next one.
 * - The deadline: libraw's progress callback stops the decode between its stages.
 */
#define _GNU_SOURCE /* memfd_create */
#include "internal.h"
#include "raw_exif.h"
#include "raw_extent.h"
#include "raw_handle.h"
#include "tiff_io.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libraw/libraw.h>

/* What libraw's callbacks see. */
typedef struct {
    uint64_t deadline_ns;
    int expired;
    int data_errors;
    int end_of_data;
    int dng; /* libraw knows every valid DNG: one it refuses is damaged */
} raw_progress;

static int on_progress(void *data, enum LibRaw_progress stage, int iteration, int expected) {
    (void)stage, (void)iteration, (void)expected;
    raw_progress *p = data;
    if (p->deadline_ns != 0 && dr_monotonic_ns() > p->deadline_ns) p->expired = 1;
    return p->expired;
}

/* libraw reports damaged data here (offset -1: the file ended) and goes on, as dcraw does. */
static void on_data_error(void *data, const char *file, const int offset) {
    (void)file;
    raw_progress *p = data;
    p->data_errors++;
    if (offset < 0) p->end_of_data = 1;
}

static dr_status raw_failure(int code, const raw_progress *progress, const char *step, char *message, size_t capacity) {
    if (code == LIBRAW_CANCELLED_BY_CALLBACK || progress->expired) {
        dr_set_message(message, capacity, "decoding ran past the time limit");
        return DR_CANCELLED;
    }
    if (code == LIBRAW_IO_ERROR || progress->end_of_data) {
        dr_set_message(message, capacity, "camera RAW data ends early (truncated file?): %s", libraw_strerror(code));
        return DR_TRUNCATED;
    }
    if (code == LIBRAW_FILE_UNSUPPORTED) {
        dr_set_message(message, capacity, progress->dng ? "DNG: libraw cannot read its structure (a damaged file)"
                                                         : "camera RAW: libraw %s does not read it (a camera it does not "
                                                           "know, or a damaged file)", LIBRAW_VERSION_STR);
        return progress->dng ? DR_CORRUPT : DR_UNSUPPORTED;
    }
    dr_set_message(message, capacity, "camera RAW (%s): %s", step, libraw_strerror(code));
    switch (code) {
    case LIBRAW_UNSUFFICIENT_MEMORY: return DR_OUT_OF_MEMORY;
    case LIBRAW_TOO_BIG: return DR_TOO_LARGE;
    default: return DR_CORRUPT;
    }
}

/* libraw's orientation code (dcraw's `flip`) as the EXIF Orientation it stands for. */
static int exif_orientation(int flip) {
    static const int orientation[8] = {1, 2, 4, 3, 5, 8, 6, 7};
    return orientation[flip & 7];
}

/* The file: an open descriptor and its length. */
typedef struct {
    size_t length;
    int fd;
} raw_source;

/* Opens the file of descriptor `fd` in `lr` by its /proc/self/fd name (libraw's file datastream). */
static int open_path_fd(libraw_data_t *lr, int fd) {
    char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return libraw_open_file(lr, path);
}

/* Bytes in memory are read as a file too, a memfd holding a copy made once (-1 if it cannot be):
 * libraw 0.20's TIFF parser reads through the buffer datastream's missing file name (a 350-byte
 * mutated DNG made libraw_open_buffer read address 0x38; Fixtures/fuzz/raw-open-buffer-segv.dng),
 * and one way in means the files the daemon reads in place and the bytes a program hands over
 * meet the same code. */
static int bytes_as_file(const unsigned char *bytes, size_t length) {
    int fd = memfd_create("darkroom-raw", MFD_CLOEXEC);
    if (fd < 0) return -1;
    for (size_t done = 0; done < length;) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    return fd;
}

/* The source for bytes in memory: their memfd copy, which the caller closes when done. */
static dr_status source_from_bytes(const unsigned char *bytes, size_t length, raw_source *source, char *message,
                                   size_t capacity) {
    source->length = length;
    source->fd = bytes_as_file(bytes, length);
    if (source->fd >= 0) return DR_OK;
    dr_set_message(message, capacity, "cannot copy a camera RAW file into memory: %s", strerror(errno));
    return DR_OUT_OF_MEMORY;
}

/* Opens (or, after libraw_recycle, opens again) the file in `lr`. */
static int raw_open_source(libraw_data_t *lr, const raw_source *source) {
    lr->params.user_flip = 0;
    return open_path_fd(lr, source->fd);
}

/* Whether the file is a DNG, from its first bytes. */
static int source_is_dng(const raw_source *source) {
    unsigned char head[DR_SNIFF_LENGTH];
    size_t n = source->length < sizeof head ? (size_t)source->length : sizeof head;
    ssize_t got;
    do got = pread(source->fd, head, n, 0); while (got < 0 && errno == EINTR);
    return got > 0 && dr_raw_is_dng(head, (size_t)got);
}

/* A libraw handle over the file, opened; NULL with the status in *status. */
static libraw_data_t *raw_open(const raw_source *source, raw_progress *progress, dr_status *status,
                               char *message, size_t capacity) {
    libraw_data_t *lr = dr_raw_handle_new(LIBRAW_OPIONS_NO_DATAERR_CALLBACK);
    if (lr == NULL) {
        dr_set_message(message, capacity, "out of memory opening a camera RAW file");
        *status = DR_OUT_OF_MEMORY;
        return NULL;
    }
    libraw_set_progress_handler(lr, on_progress, progress);
    libraw_set_dataerror_handler(lr, on_data_error, progress);
    progress->dng = source_is_dng(source);
    if (progress->dng) {
        *status = dr_raw_check_extent(source->fd, source->length, message, capacity);
        if (*status != DR_OK) {
            libraw_close(lr);
            return NULL;
        }
    }
    int code = raw_open_source(lr, source);
    if (code != LIBRAW_SUCCESS) {
        *status = raw_failure(code, progress, "open", message, capacity);
        libraw_close(lr);
        return NULL;
    }
    *status = DR_OK;
    return lr;
}

/* The file's EXIF: copied from a TIFF-based RAW's own IFDs, or made from libraw's reading. */
static void collect_exif(libraw_data_t *lr, const raw_source *source, dr_info *info) {
    unsigned char *block = NULL;
    size_t size = 0;
    dr_tiff_io io = {.length = source->length, .file = 1, .fd = source->fd};
    if (!dr_tiff_exif_collect(&io, &block, &size)) dr_raw_exif_make(lr, &block, &size);
    if (block == NULL) return;
    dr_info_store_exif(info, block, size);
    if (info->metadata != NULL) dr_metadata_keep(&info->metadata->exif, &info->metadata->exif_length, block, size);
    free(block);
}

/* The embedded preview's size, when it is a JPEG the JPEG reader takes. */
static void describe_preview(libraw_data_t *lr, dr_info *info) {
    if (libraw_unpack_thumb(lr) != LIBRAW_SUCCESS || lr->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG ||
        lr->thumbnail.thumb == NULL || lr->thumbnail.tlength == 0)
        return;
    dr_info preview = {0};
    char ignored[160];
    if (dr_jpeg_read_info((const unsigned char *)lr->thumbnail.thumb, lr->thumbnail.tlength, &preview, ignored,
                          sizeof ignored) == DR_OK) {
        info->preview_width = preview.width;
        info->preview_height = preview.height;
    }
    dr_info_free(&preview);
}

/* Fills `info` from an opened handle. */
static dr_status describe(libraw_data_t *lr, const raw_source *source, dr_info *info, char *message, size_t capacity) {
    info->format = DR_FORMAT_RAW;
    info->orientation = exif_orientation(lr->sizes.flip);
    info->channels = 3;
    info->color_space = DR_SPACE_RGB;
    unsigned maximum = lr->color.maximum;
    int bits = 1;
    while (bits < 16 && (1u << bits) <= maximum) bits++;
    info->bit_depth = bits;
    collect_exif(lr, source, info);
    describe_preview(lr, info);
    /* The developed size, which the Fuji SuperCCD's 45° layout and non-square pixels change. */
    int code = libraw_adjust_sizes_info_only(lr);
    info->width = lr->sizes.iwidth;
    info->height = lr->sizes.iheight;
    if (code != LIBRAW_SUCCESS || info->width <= 0 || info->height <= 0) {
        dr_set_message(message, capacity, "camera RAW: the image has no size");
        return DR_CORRUPT;
    }
    return DR_OK;
}

static dr_status read_info(const raw_source *source, dr_info *info, char *message, size_t capacity) {
    raw_progress progress = {0};
    dr_status status;
    libraw_data_t *lr = raw_open(source, &progress, &status, message, capacity);
    if (lr == NULL) return status;
    status = describe(lr, source, info, message, capacity);
    libraw_close(lr);
    return status;
}

dr_status dr_raw_read_info(const unsigned char *bytes, size_t length, dr_info *info, char *message, size_t capacity) {
    raw_source source;
    dr_status status = source_from_bytes(bytes, length, &source, message, capacity);
    if (status != DR_OK) return status;
    status = read_info(&source, info, message, capacity);
    close(source.fd);
    return status;
}

dr_status dr_raw_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity) {
    raw_source source = {.length = (size_t)length, .fd = fd};
    return read_info(&source, info, message, capacity);
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    libraw_processed_image_t *image;
    int next_row, crop_x, crop_y;
    /* raw_preview: the JPEG reader over the preview's bytes, which this reader owns. */
    dr_reader *preview;
    unsigned char *preview_bytes;
    size_t preview_length;
} raw_reader;

static void raw_reader_close(dr_reader *base) {
    raw_reader *r = (raw_reader *)base;
    if (r->image != NULL) libraw_dcraw_clear_mem(r->image);
    if (r->preview != NULL) dr_reader_close(r->preview);
    free(r->preview_bytes);
    dr_color_converter_free(r->base.color);
    free(r);
}

static dr_status raw_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count, char *message,
                               size_t capacity) {
    raw_reader *r = (raw_reader *)base;
    if (r->preview != NULL)
        return dr_reader_read_rows(r->preview, r->preview_bytes, r->preview_length, rows, stride, count, message, capacity);
    if (r->next_row + count > r->base.height) {
        dr_set_message(message, capacity, "camera RAW: more rows asked for than the image has");
        return DR_CORRUPT;
    }
    size_t sample = (size_t)r->base.bytes_per_sample, width = (size_t)r->image->width, colors = r->image->colors;
    size_t pixels = (size_t)r->base.width;
    for (int i = 0; i < count; i++, r->next_row++) {
        const unsigned char *from =
            r->image->data + ((size_t)(r->crop_y + r->next_row) * width + (size_t)r->crop_x) * colors * sample;
        unsigned char *to = rows + stride * (size_t)i;
        if (colors == 3) {
            memcpy(to, from, pixels * 3 * sample);
            continue;
        }
        /* A monochrome sensor's grey, as RGB. */
        for (size_t x = 0; x < pixels; x++)
            for (int c = 0; c < 3; c++) memcpy(to + (x * 3 + (size_t)c) * sample, from + x * sample, sample);
    }
    return DR_OK;
}

/* The embedded JPEG preview as this reader's source; 0 when the file has none the JPEG reader
 * opens (the raw data is developed then). */
static int open_preview(raw_reader *r, libraw_data_t *lr, const dr_read_options *options) {
    if (libraw_unpack_thumb(lr) != LIBRAW_SUCCESS || lr->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG ||
        lr->thumbnail.thumb == NULL || lr->thumbnail.tlength == 0)
        return 0;
    r->preview_length = lr->thumbnail.tlength;
    r->preview_bytes = malloc(r->preview_length);
    if (r->preview_bytes == NULL) return 0;
    memcpy(r->preview_bytes, lr->thumbnail.thumb, r->preview_length);
    dr_info preview = {0};
    char ignored[160];
    dr_status status = dr_jpeg_reader_open(r->preview_bytes, r->preview_length, options, &preview, &r->preview, ignored,
                                           sizeof ignored);
    dr_info_free(&preview);
    if (status == DR_OK) return 1;
    free(r->preview_bytes);
    r->preview_bytes = NULL;
    r->preview = NULL;
    return 0;
}

/* Unpacks and develops the raw data into r->image, within the thread budget. */
static dr_status develop(raw_reader *r, libraw_data_t *lr, const dr_read_options *options, raw_progress *progress,
                         char *message, size_t capacity) {
    libraw_output_params_t *p = &lr->params;
    p->half_size = options->shrink >= 2;
    p->user_qual = 3; /* AHD */
    p->use_camera_wb = options->raw_white_balance == DR_RAW_WB_CAMERA;
    p->use_auto_wb = options->raw_white_balance == DR_RAW_WB_AUTO;
    p->output_color = 1; /* sRGB */
    p->output_bps = options->raw_sixteen_bit ? 16 : 8;
    p->gamm[0] = 1 / 2.4; /* the sRGB tone curve (libraw's default is BT.709's) */
    p->gamm[1] = 12.92;
    int code = libraw_unpack(lr);
    if (code != LIBRAW_SUCCESS) return raw_failure(code, progress, "unpack", message, capacity);
    if (progress->end_of_data) return raw_failure(LIBRAW_IO_ERROR, progress, "unpack", message, capacity);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int helpers = dr_threads_take(cores > 1 ? (int)cores - 1 : 0);
    dr_openmp_threads(1 + helpers);
    code = libraw_dcraw_process(lr);
    dr_threads_give(helpers);
    if (code != LIBRAW_SUCCESS) return raw_failure(code, progress, "develop", message, capacity);
    dr_raw_handle_release_raw_samples(lr); /* before the copy below: not both at once */
    r->image = libraw_dcraw_make_mem_image(lr, &code);
    if (r->image == NULL) return raw_failure(code, progress, "develop", message, capacity);
    if (r->image->type != LIBRAW_IMAGE_BITMAP || (r->image->colors != 3 && r->image->colors != 1) ||
        r->image->bits != p->output_bps) {
        dr_set_message(message, capacity, "camera RAW: libraw developed a %d-channel %d-bit image, not RGB or grey",
                       r->image->colors, r->image->bits);
        return DR_CORRUPT;
    }
    if (progress->data_errors > 0)
        snprintf(r->base.warning, sizeof r->base.warning, "camera RAW: damaged data in %d place%s, developed as libraw read it",
                 progress->data_errors, progress->data_errors == 1 ? "" : "s");
    return DR_OK;
}

static dr_status reader_open(const raw_source *source, const dr_read_options *options, dr_info *info, dr_reader **out,
                             char *message, size_t capacity) {
    raw_progress progress = {.deadline_ns = options->deadline_ns};
    dr_status status;
    libraw_data_t *lr = raw_open(source, &progress, &status, message, capacity);
    if (lr == NULL) return status;
    status = describe(lr, source, info, message, capacity);
    /* adjust_sizes_info_only leaves the handle fit for nothing else: opened again to develop. */
    libraw_recycle(lr);
    if (status == DR_OK) {
        int code = raw_open_source(lr, source);
        if (code != LIBRAW_SUCCESS) status = raw_failure(code, &progress, "open", message, capacity);
    }
    if (status == DR_OK && !dr_fits(info, options->max_pixels)) status = dr_too_large(info, options->max_pixels, message, capacity);
    raw_reader *r = status == DR_OK ? calloc(1, sizeof *r) : NULL;
    if (status == DR_OK && r == NULL) {
        dr_set_message(message, capacity, "out of memory opening a camera RAW file");
        status = DR_OUT_OF_MEMORY;
    }
    int previewed = 0;
    if (status == DR_OK && options->raw_preview) {
        previewed = open_preview(r, lr, options);
        if (!previewed)
            snprintf(r->base.warning, sizeof r->base.warning, "camera RAW: no embedded JPEG preview; the raw data was developed");
    }
    if (status == DR_OK && !previewed) status = develop(r, lr, options, &progress, message, capacity);
    libraw_close(lr); /* the raw samples and libraw's working image; the developed image lives on */
    if (status != DR_OK) {
        if (r != NULL) raw_reader_close(&r->base);
        return status;
    }
    r->base.format = DR_FORMAT_RAW;
    r->base.read_rows = raw_read_rows;
    r->base.close = raw_reader_close;
    if (previewed) {
        dr_reader_layout(r->preview, &r->base.width, &r->base.height, &r->base.channels, &r->base.bytes_per_sample);
        memcpy(r->base.warning, dr_reader_warning(r->preview), sizeof r->base.warning);
    } else {
        dr_info developed = *info;
        developed.width = r->image->width;
        developed.height = r->image->height;
        developed.icc = NULL;
        dr_reader_window(&r->base, options, &developed, &r->crop_x, &r->crop_y);
        r->base.channels = 3;
        r->base.bytes_per_sample = r->image->bits == 16 ? 2 : 1;
    }
    if (r->base.warning[0] != 0) memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}

dr_status dr_raw_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options, dr_info *info,
                             dr_reader **out, char *message, size_t capacity) {
    raw_source source;
    dr_status status = source_from_bytes(bytes, length, &source, message, capacity);
    if (status != DR_OK) return status;
    status = reader_open(&source, options, info, out, message, capacity); /* the reader keeps the developed image only */
    close(source.fd);
    return status;
}

dr_status dr_raw_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                  dr_reader **out, char *message, size_t capacity) {
    raw_source source = {.length = (size_t)length, .fd = fd};
    return reader_open(&source, options, info, out, message, capacity);
}
