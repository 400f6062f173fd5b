#ifndef DARKROOM_CODECS_H
#define DARKROOM_CODECS_H

/*
 * C shims over libpng and libjpeg(-turbo).
 *
 * Both libraries report fatal errors by longjmp. Every function here owns its setjmp, so a
 * longjmp never crosses into Swift: each returns a dr_status and writes a human-readable
 * message into the caller's buffer. All input and output is in memory; Swift does the file I/O.
 */

#include <stddef.h>
#include <stdint.h>

/* Outcome of a call. Mirrors CodecError.Code on the Swift side. */
typedef enum {
    DR_OK = 0,
    DR_NOT_AN_IMAGE = 1,
    DR_CORRUPT = 2,
    DR_TRUNCATED = 3,
    DR_UNSUPPORTED = 4,
    DR_TOO_LARGE = 5,
    DR_OUT_OF_MEMORY = 6,
    DR_ENCODE_FAILED = 7
} dr_status;

typedef enum { DR_FORMAT_PNG = 1, DR_FORMAT_JPEG = 2 } dr_format;

typedef enum {
    DR_SPACE_GRAY = 1,
    DR_SPACE_RGB = 2,
    DR_SPACE_CMYK = 3,
    DR_SPACE_YCCK = 4,
    DR_SPACE_PALETTE = 5
} dr_color_space;

/*
 * What a file's header declares. The caller may point `exif` at a buffer of `exif_capacity`
 * bytes; the TIFF stream of the EXIF block (JPEG APP1 after "Exif\0\0", or PNG eXIf) is copied
 * there, truncated to the capacity, and `exif_length` says how many bytes were written.
 */
typedef struct {
    int format;        /* dr_format */
    int width;
    int height;
    int channels;      /* as stored: 1..4 */
    int bit_depth;     /* per sample as stored */
    int color_space;   /* dr_color_space */
    int has_alpha;     /* alpha channel or PNG tRNS */
    int interlaced;    /* PNG Adam7 or progressive JPEG */
    int has_icc;       /* PNG iCCP or JPEG APP2 ICC_PROFILE */
    unsigned char *exif;
    size_t exif_capacity;
    size_t exif_length;
} dr_info;

/*
 * Decoded pixels: always straight (not premultiplied) RGBA, rows top to bottom, no padding.
 * `bytes_per_sample` is 1 or 2 (16-bit PNG, host byte order). Release with dr_pixels_free.
 */
typedef struct {
    void *data;
    int width;
    int height;
    int bytes_per_sample;
} dr_pixels;

/* A growable output byte buffer. Release with dr_buffer_free. */
typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} dr_buffer;

/* Reads the header of a PNG or JPEG held in memory; no pixel memory is allocated. */
dr_status dr_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                       char *message, size_t message_capacity);

/*
 * Decodes a PNG or JPEG. The header is read first and `width × height` (as stored in the file)
 * is checked against `max_pixels` before any pixel memory is allocated. `jpeg_shrink` (1, 2, 4
 * or 8) makes libjpeg scale by 1/jpeg_shrink while decoding; PNG ignores it.
 */
dr_status dr_decode(const unsigned char *bytes, size_t length, int jpeg_shrink,
                    uint64_t max_pixels, dr_info *info, dr_pixels *pixels,
                    char *message, size_t message_capacity);

/*
 * Encodes straight 8-bit RGBA as PNG: colour type RGB when `keep_alpha` is 0 (the alpha byte is
 * dropped), RGBA otherwise.
 */
dr_status dr_encode_png(const unsigned char *rgba, int width, int height, int keep_alpha,
                        dr_buffer *out, char *message, size_t message_capacity);

/*
 * Encodes 8-bit RGBA as baseline (or progressive) JPEG with 4:2:0 chroma subsampling. The alpha
 * byte is ignored: the caller flattens first. `quality` is 1...100.
 */
dr_status dr_encode_jpeg(const unsigned char *rgba, int width, int height, int quality,
                         int progressive, dr_buffer *out, char *message,
                         size_t message_capacity);

void dr_pixels_free(dr_pixels *pixels);
void dr_buffer_free(dr_buffer *buffer);

#endif
