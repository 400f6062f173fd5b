#ifndef DARKROOM_CODECS_INTERNAL_H
#define DARKROOM_CODECS_INTERNAL_H

#include <pthread.h>
#include "include/darkroom_codecs.h"

/* Writes a printf-style message into the caller's buffer (always NUL-terminated). */
void dr_set_message(char *message, size_t capacity, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* A writer's or reader's failure: `status` kept in `*slot` (which its later calls return; NULL:
 * nowhere) and the printf-style message written; returns `status`. */
dr_status dr_fail(dr_status *slot, char *message, size_t capacity, dr_status status, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

/* Appends bytes to a growable buffer; returns 0 when memory runs out. */
int dr_buffer_append(dr_buffer *buffer, const unsigned char *bytes, size_t length);

/* Where a JPEG's or PNG's encoded bytes go (sink.c): appended to `buffer`, or with `to_file`
 * written into `fd` from offset 0 (pwrite) as they come. `length`: bytes put so far. */
typedef struct {
    dr_buffer *buffer;
    int to_file;
    int fd;
    uint64_t length;
} dr_sink;

void dr_sink_init(dr_sink *sink, dr_buffer *buffer, int to_file, int fd);

/* Puts `n` more bytes: DR_OK; DR_OUT_OF_MEMORY; or DR_WRITE_FAILED, `message` the system's
 * reason ("No space left on device"). */
dr_status dr_sink_put(dr_sink *sink, const void *bytes, size_t n, char *message, size_t capacity);

/* Writes all `n` bytes at `offset` of `fd` (pwrite, retried when cut short); 0 with errno set
 * when they could not be. */
int dr_write_at(int fd, uint64_t offset, const void *bytes, size_t n);

/* Helper threads from the budget set with dr_set_thread_budget: up to `wanted`, maybe 0. */
int dr_threads_take(int wanted);
void dr_threads_give(int count);
/* OpenMP regions started on the calling thread run on at most `count` threads (libgomp's
 * omp_set_num_threads, where a library brought libgomp in). */
void dr_openmp_threads(int count);

/* Encodes frame buffer `buffer` (0 or 1) of `writer` (frame_worker.c). */
typedef dr_status (*dr_frame_encode)(void *writer, int buffer, int delay_ms, char *message, size_t capacity);

/* An animated writer's frames encoded on a thread of their own while the caller fills the
 * writer's other buffer, when the compute slots grant one (else on the caller's thread). */
typedef struct {
    dr_frame_encode encode;
    void *writer;
    pthread_t thread;
    int running; /* `thread` is encoding `buffer` */
    int buffer, delay_ms;
    dr_status status;
    char message[256];
} dr_frame_worker;

void dr_frame_worker_init(dr_frame_worker *worker, dr_frame_encode encode, void *writer);

/* Waits for the frame started before (if any) to be encoded, then encodes `buffer`: on a
 * thread, returning DR_OK at once, or here. A failure of the frame before is returned instead,
 * its message in `message`. */
dr_status dr_frame_worker_start(dr_frame_worker *worker, int buffer, int delay_ms, char *message, size_t capacity);

/* Waits for the frame being encoded, if any: its status, its message in `message`. Called before
 * the writer finishes or is closed. */
dr_status dr_frame_worker_wait(dr_frame_worker *worker, char *message, size_t capacity);

/* Copies up to the info's EXIF capacity from a TIFF stream. */
void dr_info_store_exif(dr_info *info, const unsigned char *tiff, size_t length);

/* Clears `info` for a new read, keeping the caller's EXIF buffer and metadata target. */
void dr_info_reset(dr_info *info);

/* Whether a decode of width × height fits the pixel budget. */
int dr_fits(const dr_info *info, uint64_t max_pixels);

/* Copies `n` bytes at `at` of a `length`-byte file, in memory (`bytes`) or, bytes NULL, read
 * through `fd` with pread; 0 when they are not all there. */
int dr_read_at(const unsigned char *bytes, int fd, uint64_t length, uint64_t at, void *into, size_t n);

/* The crop window clamped to a width × height image (width 0 asks for everything). */
void dr_clamp_crop(const dr_read_options *options, int width, int height,
                   int *x, int *y, int *w, int *h);

/* Copies a profile into info->icc (replacing none already there); 0 when memory runs out. */
int dr_info_store_icc(dr_info *info, const unsigned char *profile, size_t length);

/* A conversion of a reader's rows from an embedded profile to sRGB (icc.c). */
typedef struct dr_color_converter dr_color_converter;

/* For rows of `channels` samples of `bytes_per_sample` (RGB or grey expanded to RGB, in place),
 * or CMYK (4 × 8-bit in, RGB out; `inverted_cmyk`: Adobe's storage, 255 = no ink). NULL with
 * `problem` (160 bytes) set when the profile is unusable or does not fit `image_space`. */
dr_color_converter *dr_color_converter_make(const unsigned char *profile, size_t length, int intent,
                                            int image_space, int channels, int bytes_per_sample,
                                            int inverted_cmyk, char *problem);
void dr_color_converter_rows(const dr_color_converter *c, unsigned char *row, size_t pixels);
void dr_color_converter_cmyk(const dr_color_converter *c, const unsigned char *cmyk, unsigned char *rgb,
                             size_t pixels);
void dr_color_converter_free(dr_color_converter *c);

/* Sets up a reader's colour conversion after its layout is known: none when not asked for or
 * nothing to convert; the converter when the profile is usable (and not sRGB already); a
 * warning in the reader otherwise. */
dr_color_converter *dr_reader_color_setup(dr_reader *reader, const dr_info *info,
                                          const dr_read_options *options, int image_space,
                                          int channels, int inverted_cmyk);

/* The shape every reader shares: which format, its delivered layout, and its operations. */
struct dr_reader {
    int format;
    int width, height, channels, bytes_per_sample;
    char warning[160];
    const unsigned char *bytes; /* the input, where the last call saw it */
    dr_color_converter *color;  /* rows to sRGB, or NULL */
    dr_status (*read_rows)(dr_reader *reader, unsigned char *rows, size_t stride, int count,
                           char *message, size_t capacity);
    void (*close)(dr_reader *reader);
};

/* The shape every writer shares: its operations. */
struct dr_writer {
    int format;
    dr_status (*set_icc)(dr_writer *writer, const unsigned char *profile, size_t length,
                         char *message, size_t capacity);
    dr_status (*write_rows)(dr_writer *writer, const unsigned char *rows, size_t stride, int count,
                            char *message, size_t capacity);
    dr_status (*finish)(dr_writer *writer, dr_buffer *out, char *message, size_t capacity);
    void (*close)(dr_writer *writer);
    /* TIFF instead of finish: ends the file keeping its bytes in the writer, then hands them
     * over; the others' finish goes into `ended`. */
    dr_status (*end)(dr_writer *writer, size_t *length, char *message, size_t capacity);
    void (*take)(dr_writer *writer, unsigned char *into);
    /* Animated GIF and WebP: the rows so far are a frame (NULL for the others). */
    dr_status (*end_frame)(dr_writer *writer, int delay_ms, char *message, size_t capacity);
    dr_buffer ended;
    /* JPEG and PNG: where their bytes go; with to_file, finish leaves `ended` empty and the
     * file's length is sink.length. */
    dr_sink sink;
};

/* The header and reader entry points of each format (png.c, jpeg.c, tiff.c, webp.c, heif.c). */
typedef dr_status (*dr_info_reader)(const unsigned char *bytes, size_t length, dr_info *info,
                                    char *message, size_t capacity);
typedef dr_status (*dr_reader_opener)(const unsigned char *bytes, size_t length,
                                      const dr_read_options *options, dr_info *info,
                                      dr_reader **reader, char *message, size_t capacity);
dr_status dr_tiff_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity);
dr_status dr_tiff_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **reader, char *message, size_t capacity);
dr_status dr_webp_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity);
dr_status dr_webp_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **reader, char *message, size_t capacity);
dr_status dr_gif_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity);
dr_status dr_gif_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **reader, char *message, size_t capacity);
/* Whether `bytes` start a JPEG XL file: a bare codestream (FF 0A) or the container's `JXL ` box. */
int dr_sniff_jxl(const unsigned char *bytes, size_t length);
dr_status dr_jxl_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity);
dr_status dr_jxl_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **reader, char *message, size_t capacity);
/* Rows of 8-bit RGB or RGBA into a WebPPicture's ARGB rows from `first` on (webp_write.c). */
struct WebPPicture;
void dr_webp_pack_argb(struct WebPPicture *picture, int first, const unsigned char *rows, size_t stride, int count,
                       int channels);

/* An animated WebP writer (webp_anim_write.c): dr_webp_writer_open's with options->animated. */
dr_status dr_webp_anim_writer_open(int width, int height, const dr_webp_write_options *options,
                                   const dr_metadata *metadata, dr_writer **writer, char *message, size_t capacity);
/* Adds the ICCP, EXIF and XMP chunks (each optional) to an encoded WebP, into `out`; 0 on failure. */
struct WebPData;
int dr_webp_add_chunks(const struct WebPData *image, const unsigned char *icc, size_t icc_length,
                       const dr_metadata *metadata, dr_buffer *out);
/* Registers darkroom's HEVC decoder (libde265 with a worker per core) with libheif, once;
 * called before any libheif decode (heif_hevc.c). */
void dr_heif_register_decoders(void);
/* DR_CORRUPT when a HEIF's derived images refer back to themselves or nest more than a few deep
 * (heif_references.c): libheif would recurse through them until the stack ran out. */
dr_status dr_heif_check_references(const unsigned char *bytes, size_t length, char *message, size_t capacity);
/* DR_TOO_LARGE when a grid or overlay in a HEIF states a canvas over `max_pixels`
 * (heif_canvases.c): libheif would allocate it as stated. */
dr_status dr_heif_check_canvases(const unsigned char *bytes, size_t length, uint64_t max_pixels, char *message, size_t capacity);
/* The size an HEVC sequence parameter set (a whole NAL unit, header included) declares; 0, or -1
 * when it ends before its size (hevc_sps.c). */
int dr_hevc_sps_size(const unsigned char *nal, size_t length, uint32_t *width, uint32_t *height);
dr_status dr_heif_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity);
dr_status dr_heif_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **reader, char *message, size_t capacity);

/* PDF and SVG (vector.c): a page rendered band by band through CDarkroomDraw's poppler and librsvg. */
dr_status dr_vector_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                              char *message, size_t capacity);
dr_status dr_vector_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                                dr_info *info, dr_reader **reader, char *message, size_t capacity);
/* Camera RAW through libraw (raw_sniff.c, raw.c): DR_FORMAT_RAW when the head says so. */
int dr_sniff_raw(const unsigned char *bytes, size_t length);
int dr_raw_is_dng(const unsigned char *bytes, size_t length); /* a DNG, by its DNGVersion tag */
dr_status dr_raw_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity);
dr_status dr_raw_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **reader, char *message, size_t capacity);
dr_status dr_raw_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity);
dr_status dr_raw_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                  dr_reader **reader, char *message, size_t capacity);

/* The in-place readers behind dr_read_info_file and dr_reader_open_file (tiff.c, jpeg.c). */
dr_status dr_tiff_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity);
dr_status dr_tiff_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                   dr_reader **reader, char *message, size_t capacity);
dr_status dr_jpeg_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity);
dr_status dr_jpeg_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                   dr_reader **reader, char *message, size_t capacity);

/* Sets the reader's delivered size to the crop window of a whole-image read (TIFF, WebP,
 * HEIF) and gives the window's top-left corner in the stored image. */
void dr_reader_window(dr_reader *reader, const dr_read_options *options, const dr_info *info, int *x, int *y);

/* The DR_TOO_LARGE message for a header over the pixel limit. */
dr_status dr_too_large(const dr_info *info, uint64_t max_pixels, char *message, size_t capacity);

/* CMYK to RGB without colour management; `inverted`: Adobe's storage, 255 = no ink. */
void dr_cmyk_to_rgb(const unsigned char *cmyk, unsigned char *rgb, int width, int inverted);

/* Straight (unassociated) colour from premultiplied samples, in place: RGBA rows of 8 or 16 bits. */
void dr_unpremultiply(unsigned char *row, size_t pixels, int bytes_per_sample);

dr_status dr_png_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity);
dr_status dr_jpeg_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity);
dr_status dr_png_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                             dr_info *info, dr_reader **reader, char *message, size_t capacity);
dr_status dr_jpeg_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **reader, char *message, size_t capacity);
dr_status dr_png_read_rows(dr_reader *reader, unsigned char *rows, size_t stride, int count,
                           char *message, size_t capacity);
dr_status dr_jpeg_read_rows(dr_reader *reader, unsigned char *rows, size_t stride, int count,
                            char *message, size_t capacity);
void dr_png_reader_close(dr_reader *reader);
void dr_jpeg_reader_close(dr_reader *reader);

dr_status dr_png_write_rows(dr_writer *writer, const unsigned char *rows, size_t stride, int count,
                            char *message, size_t capacity);
dr_status dr_jpeg_write_rows(dr_writer *writer, const unsigned char *rows, size_t stride, int count,
                             char *message, size_t capacity);
dr_status dr_png_writer_finish(dr_writer *writer, dr_buffer *out, char *message, size_t capacity);
dr_status dr_jpeg_writer_finish(dr_writer *writer, dr_buffer *out, char *message, size_t capacity);
void dr_png_writer_close(dr_writer *writer);
dr_status dr_png_writer_set_icc(dr_writer *writer, const unsigned char *profile, size_t length,
                                char *message, size_t capacity);
dr_status dr_jpeg_writer_set_icc(dr_writer *writer, const unsigned char *profile, size_t length,
                                 char *message, size_t capacity);
void dr_jpeg_writer_close(dr_writer *writer);

/* PNG row filters (png_filter.c): `count` rows into out (rows × (row_bytes + 1) bytes), each
 * with its filter byte; `above` the row before the first (host order), or NULL. 0: no memory. */
int dr_png_filter_rows(const unsigned char *rows, size_t stride, size_t row_bytes, int count,
                       const unsigned char *above, const dr_png_filter_options *options, unsigned char *out);

/* A PNG writer's image data (png_idat.c): segments made elsewhere, and rows deflated here in
 * one continuing stream, written as IDAT chunks in order, then IEND. */
#define DR_PNG_IDAT_BUFFER (64 * 1024)
typedef struct {
    int level;
    dr_png_filter_options filter;
    size_t row_bytes;
    uint32_t adler;            /* of every filtered byte so far */
    int started, ended;        /* the zlib header is out; the final block and Adler-32 are out */
    void *z;                   /* the continuing stream (a z_stream), once rows come */
    int open, used;            /* it exists; it holds rows since its last reset */
    unsigned char *out;        /* its output not yet in a chunk */
    size_t pending;
    unsigned char *above;      /* the last row it took, for the next row's filter */
    int has_above;
    unsigned char *filtered;
    size_t filtered_capacity;
} dr_png_idat;
dr_status dr_png_idat_init(dr_png_idat *idat, size_t row_bytes, const dr_png_filter_options *filter, int level);
void dr_png_idat_free(dr_png_idat *idat);
dr_status dr_png_idat_rows(dr_png_idat *idat, dr_sink *sink, const unsigned char *rows, size_t stride, int count,
                           int last, char *message, size_t capacity);
dr_status dr_png_idat_put(dr_png_idat *idat, dr_sink *sink, const dr_png_segment *segment,
                          const unsigned char *bytes, char *message, size_t capacity);
dr_status dr_png_idat_end(dr_png_idat *idat, dr_sink *sink, char *message, size_t capacity);

/* Metadata in and out of the containers (jpeg_metadata.c, png_metadata.c). Collecting copies
 * the blocks it finds into `out` (the first of each kind wins); writing embeds them. */
struct jpeg_marker_struct;
struct jpeg_compress_struct;
void dr_jpeg_collect_metadata(struct jpeg_marker_struct *markers, dr_metadata *out);
void dr_jpeg_write_metadata(struct jpeg_compress_struct *cinfo, const dr_metadata *metadata);

struct png_struct_def;
struct png_info_def;
void dr_png_collect_metadata(struct png_struct_def *png, struct png_info_def *info, dr_metadata *out);
void dr_png_collect_trailing_metadata(const unsigned char *bytes, size_t length, dr_metadata *out);
void dr_png_set_metadata(struct png_struct_def *png, struct png_info_def *info, const dr_metadata *metadata);

/* The Photoshop image resource that holds IPTC-NAA records. */
#define DR_IPTC_RESOURCE 0x0404

/* The IPTC-NAA data of a list of Photoshop image resources ("8BIM" blocks), kept into `out`. */
void dr_find_iptc_resource(const unsigned char *resources, size_t length, dr_metadata *out);

/* A palette of at most 256 RGBA colours, the translucent ones (alpha < 255) first so that tRNS
 * can stop after them. */
typedef struct {
    unsigned char entries[256][4];
    int count;
    int translucent;
} dr_palette;

/* Fills `palette` and `indices` (one byte a pixel) from 8-bit RGB or RGBA pixels; returns 0 when
 * they use more than 256 colours. */
int dr_palette_index(const unsigned char *pixels, size_t count, int channels, dr_palette *palette,
                     unsigned char *indices);

/* A palette's opaque entries, to measure how well it serves other pixels (palette_fit.c). */
typedef struct {
    int r[264], g[264], b[264]; /* `padded` entries: the `count` opaque ones, then copies of the first */
    int count, padded;
    int has_transparent;        /* the palette holds an entry for transparent pixels */
} dr_palette_fit;

/* How far a sample of pixels lies from a palette: the mean and the largest squared RGB distance
 * (0 ... 3 * 255²) from an opaque pixel to its nearest entry; `transparent_missing` when a pixel
 * sampled is transparent (alpha < 128) and the palette has no entry for it. */
typedef struct {
    double mean;
    int max;
    int transparent_missing;
} dr_palette_error;

void dr_palette_fit_set(dr_palette_fit *fit, const unsigned char (*rgba)[4], int count);

/* The error of `fit` on the w×h rectangle at (x0, y0) of straight RGBA pixels `width` wide,
 * sampled on a grid of about 8192 points. */
dr_palette_error dr_palette_fit_error(const dr_palette_fit *fit, const unsigned char *rgba, int width, int x0, int y0,
                                      int w, int h);

/* Copies `length` bytes into a fresh block at *to (left alone when *to is set already or memory
 * runs out). */
void dr_metadata_keep(unsigned char **to, size_t *to_length, const unsigned char *from, size_t length);

/* The 10-bit AVIF writer (libavif with libaom; avif10_write.c): dr_avif_writer_open's for
 * bit_depth 10, with the options already within their ranges. Rows are 16-bit samples in host
 * order. */
dr_status dr_avif10_writer_open(int width, int height, const dr_avif_write_options *options,
                                const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity);

#endif
