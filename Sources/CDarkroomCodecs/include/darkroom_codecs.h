#ifndef DARKROOM_CODECS_H
#define DARKROOM_CODECS_H

/*
 * C shims over libpng, libjpeg(-turbo), libtiff, libwebp and libheif, streaming where the
 * library allows: a reader hands out rows in order, a writer takes rows in order. PNG, JPEG
 * and TIFF (strip by strip, or a row of tiles at a time) hold no whole image, except an
 * interlaced PNG, decoded whole in its compact form, and libjpeg's coefficient buffer for a
 * progressive JPEG. WebP and HEIF/AVIF decoders hold the decoded image (libwebp's incremental
 * decoder fills it as input is fed, libheif decodes it at once), and the WebP and AVIF
 * encoders keep every row until they encode at finish; dr_held_bytes says how much.
 *
 * Both libraries report fatal errors by longjmp. Every function here that calls into them
 * arms its own setjmp first, so a longjmp never crosses into Swift: each returns a dr_status
 * and writes a human-readable message into the caller's buffer. Once a reader or writer has
 * failed it stays failed; the caller closes it. Input is in memory (a TIFF or a JPEG may be read
 * through its descriptor); output is in memory, or (JPEG, PNG, TIFF) written into a descriptor the caller
 * opened, as the encoder makes it. Swift does the rest of the file I/O.
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
    DR_ENCODE_FAILED = 7,
    DR_CANCELLED = 8,
    DR_WRITE_FAILED = 9 /* the output's file refused the bytes; the message is the system's reason */
} dr_status;

typedef enum {
    DR_FORMAT_PNG = 1,
    DR_FORMAT_JPEG = 2,
    DR_FORMAT_TIFF = 3,
    DR_FORMAT_WEBP = 4,
    DR_FORMAT_HEIF = 5, /* HEIC and other HEIF brands */
    DR_FORMAT_AVIF = 6,
    DR_FORMAT_GIF = 7,
    DR_FORMAT_JXL = 8,  /* JPEG XL: a bare codestream or the ISOBMFF container */
    DR_FORMAT_RAW = 11, /* camera RAW (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2…), read through libraw */
    DR_FORMAT_PDF = 16, /* read only: a page rendered by poppler (vector.c) */
    DR_FORMAT_SVG = 17  /* read only: rendered by librsvg, gzip'd or not */
} dr_format;

/* The format `bytes` start with, by their signature (0: none darkroom reads). It looks at no
 * more than the first DR_SNIFF_LENGTH bytes (a TIFF-based camera RAW is told from an ordinary
 * TIFF by its first directory), so a file's head of that length gives the same answer as the
 * whole file. */
int dr_sniff(const unsigned char *bytes, size_t length);
#define DR_SNIFF_LENGTH 4096

/* PDF ("%PDF-") or SVG (an <svg> root after the XML prolog; gzip'd too), else 0 (vector_sniff.c). */
int dr_sniff_vector(const unsigned char *bytes, size_t length);

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
 * `warning` holds the first problem the decoder forgave (empty when none).
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
    /* The embedded ICC profile (JPEG APP2 chunks joined, or PNG iCCP inflated), malloc'd by the
     * shim when the file has one; the caller releases it with dr_info_free. */
    unsigned char *icc;
    size_t icc_length;
    /* When not NULL, the EXIF, XMP and IPTC blocks are copied there whole (JPEG APP1/APP13;
     * PNG eXIf, iTXt XMP and ImageMagick's "Raw profile type" text); free with dr_metadata_free. */
    struct dr_metadata *metadata;
    char warning[160];
    int pages;         /* TIFF pages, WebP frames; 1 for everything else */
    int orientation;   /* the format's own orientation tag (TIFF Orientation); 0: the EXIF's */
    int oriented;      /* HEIF/AVIF: the decoder turns the image upright itself (irot/imir) */
    /* PDF and SVG: each page's width and height in points (1/72 inch), `pages` pairs, malloc'd
     * (dr_info_free releases them); width and height above are the page asked for at its DPI. */
    double *page_sizes;
    int preview_width, preview_height; /* camera RAW: its embedded JPEG preview's size (0: none) */
} dr_info;

/* Frees what a dr_info owns (its ICC profile). */
void dr_info_free(dr_info *info);

/* A growable output byte buffer. Release with dr_buffer_free. */
typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} dr_buffer;

/* A PDF or SVG, parsed (see dr_document_open). */
typedef struct dr_document dr_document;

/* How a reader decodes. Zero-initialised means: whole image, no limits but max_pixels. */
typedef struct {
    /* JPEG: decode at 1/shrink (1, 2, 4 or 8) by DCT scaling. PNG ignores it. */
    int shrink;
    /* Rows and columns to deliver, in the decoded (shrunk) image; width 0 means all. JPEG skips
     * the rows above and the columns outside without decoding them (jpeg_skip_scanlines,
     * jpeg_crop_scanline); PNG decodes and drops them. Clamped to the image. */
    int crop_x, crop_y, crop_width, crop_height;
    /* Largest width × height the header may declare; checked before any pixel memory. */
    uint64_t max_pixels;
    /* Progressive JPEG: refuse more scans than this (0: DR_DEFAULT_MAX_SCANS). */
    int max_scans;
    /* CLOCK_MONOTONIC nanoseconds after which decoding stops with DR_CANCELLED (0: never). */
    uint64_t deadline_ns;
    /* Convert rows from the embedded ICC profile to sRGB (DR_INTENT_*); a CMYK JPEG is always
     * converted (through its profile when it has a usable one, naively otherwise). An unusable
     * profile leaves the samples as they are, with a warning (dr_reader_warning). */
    int convert_to_srgb;
    int intent;
    /* PDF and SVG: the page (1-based; 0 is the first) at `dpi` (0: DR_DEFAULT_DPI), whose
     * width × height is checked against max_pixels; rendered at render_width × render_height
     * pixels instead when those are set (a following resize's size). */
    int page;
    double dpi;
    int render_width, render_height;
    /* PDF and SVG: the document of these bytes, parsed by dr_document_open, which the reader
     * draws from instead of parsing the bytes again (NULL: it parses them). It stays the
     * caller's: open until the reader is closed, and used by that reader alone meanwhile. */
    dr_document *document;
    /* Camera RAW (raw.c): with shrink 2 or more, libraw's half-size decode (a pixel from each
     * 2×2 block of the sensor, no demosaicing); the white balance (DR_RAW_WB_*); 16-bit rows
     * instead of 8-bit; the embedded JPEG preview instead of the raw data (shrink then as a
     * JPEG's). */
    int raw_white_balance;
    int raw_sixteen_bit;
    int raw_preview;
} dr_read_options;

/* The resolution a PDF or SVG page is rendered at when none is asked for. */
#define DR_DEFAULT_DPI 150
/* The most bytes of a PDF or SVG page drawn at once (cairo ARGB; at least 16 rows). */
#define DR_VECTOR_BAND_BYTES (16L << 20)

/* Camera RAW white balances: as shot (the camera's multipliers), grey world over the image,
 * or daylight (the camera's D65 multipliers). */
enum { DR_RAW_WB_CAMERA = 0, DR_RAW_WB_AUTO = 1, DR_RAW_WB_DAYLIGHT = 2 };

/* Rendering intents (the lcms ones darkroom offers). */
enum { DR_INTENT_PERCEPTUAL = 0, DR_INTENT_RELATIVE = 1 };

/* libvips refuses JPEGs with more scans than a few hundred; real encoders write at most ~20. */
#define DR_DEFAULT_MAX_SCANS 500

typedef struct dr_reader dr_reader;
typedef struct dr_writer dr_writer;

/* Reads the header of a PNG or JPEG held in memory; no pixel memory is allocated. */
dr_status dr_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                       char *message, size_t message_capacity);

/*
 * Opens a reader over `bytes` and fills `info`. The bytes must stay unchanged while the reader
 * lives, but need not stay at one address: every read_rows call passes them again (Swift hands
 * out an array's address only for the length of one call). Rows come out as
 * straight (not premultiplied) samples, interleaved: RGB (3 channels) for every JPEG (grey
 * expanded, CMYK converted naively) and for PNG without alpha, RGBA (4) for PNG with alpha or
 * tRNS; 1 byte per sample, or 2 (host order) for 16-bit PNG. dr_reader_layout tells which.
 */
dr_status dr_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                         dr_info *info, dr_reader **reader, char *message, size_t message_capacity);

/*
 * The same for a TIFF, a JPEG or a camera RAW read in place: through the open descriptor `fd`
 * (pread, at no particular offset, so the descriptor's own offset is left alone), `length` bytes
 * long, a TIFF strip by strip (or a row of tiles at a time) as rows are asked for, a JPEG 64 KB at
 * a time as libjpeg asks, a RAW by libraw through /proc/self/fd/N (the same file), so the file is
 * never held whole. Read rows with dr_reader_read_rows and NULL
 * bytes. Other formats are refused (DR_UNSUPPORTED): they are read from memory.
 */
dr_status dr_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t message_capacity);
dr_status dr_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                              dr_reader **reader, char *message, size_t message_capacity);

/*
 * PDF and SVG: dr_read_info that keeps the parsed document (poppler's or librsvg's, with every
 * page's size) for readers of the same bytes to borrow (dr_read_options.document), so that
 * a file is parsed once however many times it is read. *document is NULL on failure.
 * dr_document_info gives the header again from the document alone. A document is not
 * thread-safe: one user at a time.
 */
dr_status dr_document_open(const unsigned char *bytes, size_t length, dr_info *info, dr_document **document,
                           char *message, size_t message_capacity);
dr_status dr_document_info(const dr_document *document, dr_info *info, char *message, size_t message_capacity);
void dr_document_close(dr_document *document);

/* The delivered size and row layout. */
void dr_reader_layout(const dr_reader *reader, int *width, int *height, int *channels,
                      int *bytes_per_sample);

/* Decodes the next `count` rows into `rows`, `stride` bytes apart. */
dr_status dr_reader_read_rows(dr_reader *reader, const unsigned char *bytes, size_t length,
                              unsigned char *rows, size_t stride, int count,
                              char *message, size_t message_capacity);

/* The first problem the decoder forgave while reading rows (empty when none). */
const char *dr_reader_warning(const dr_reader *reader);

/* Whether rows are converted from the embedded profile to sRGB (1) or delivered as stored (0:
 * no profile, an sRGB-equivalent one, an unusable one, or no conversion asked for). */
int dr_reader_converts_color(const dr_reader *reader);

void dr_reader_close(dr_reader *reader);

/*
 * Metadata blocks a writer embeds, or a reader found. Each is optional (NULL or length 0: none).
 * A writer only reads them; blocks a reader hands out are malloc'd, freed by dr_metadata_free.
 */
typedef struct dr_metadata {
    unsigned char *exif; size_t exif_length; /* TIFF stream, without JPEG's "Exif\0\0" */
    unsigned char *xmp; size_t xmp_length;   /* the XMP packet (XML text) */
    unsigned char *iptc; size_t iptc_length; /* IPTC-NAA records (IIM), without a Photoshop wrapper */
} dr_metadata;

void dr_metadata_free(dr_metadata *metadata);

/* How dr_exif_rewrite brings an EXIF block up to date for an output. */
typedef struct {
    int orientation_upright; /* the pixels were turned upright: Orientation becomes 1 */
    int width, height;       /* the output's size: PixelXDimension, PixelYDimension */
    int remove_gps;          /* drop the GPS IFD */
    int copyright_only;      /* keep only Artist and Copyright */
    int srgb;                /* the pixels were converted to sRGB: ColorSpace (when present) becomes 1 */
} dr_exif_edit;

/*
 * Loads the EXIF TIFF stream `tiff` with libexif, applies `edit`, drops the thumbnail (IFD1) and
 * writes the TIFF stream into `out` (free with dr_buffer_free; left empty when no entry is left,
 * as with copyright_only on a block that names no owner). DR_CORRUPT when no entry can be read.
 * DR_OK with a message when some entries were unreadable and left out (the message is then a
 * warning); an empty message otherwise.
 */
dr_status dr_exif_rewrite(const unsigned char *tiff, size_t length, const dr_exif_edit *edit,
                          dr_buffer *out, char *message, size_t message_capacity);

/* The ASCII value of EXIF tag `tag` (Artist 0x013b, Copyright 0x8298, DateTimeOriginal 0x9003)
   in the TIFF stream `tiff`, into `out` (NUL-terminated, cut at `capacity`). 1 when found and
   not empty, else 0 (no block, no such entry, not ASCII). Never prints. */
int dr_exif_text(const unsigned char *tiff, size_t length, int tag, char *out, size_t capacity);

/* How a JPEG writer encodes. */
typedef struct {
    int quality;     /* 1...100 */
    int progressive;
    int chroma_444;  /* full-resolution chroma (1x1 sampling) instead of 4:2:0 */
    int optimize;    /* Huffman tables optimised for the image (one more pass over the coefficients) */
    int channels;    /* rows are 1 (grey: a one-component JPEG) or 3 (RGB) bytes a pixel */
    int to_file;     /* write into `fd` (pwrite, from offset 0) as libjpeg fills its 64 KB block,
                      * instead of memory: dr_writer_end then gives the length and there is nothing
                      * to take; a failed write is DR_WRITE_FAILED */
    int fd;
} dr_jpeg_write_options;

/* A JPEG writer; the metadata (may be NULL) goes into APP1 (Exif, XMP) and APP13 markers. */
dr_status dr_jpeg_writer_open(int width, int height, const dr_jpeg_write_options *options,
                              const dr_metadata *metadata, dr_writer **writer,
                              char *message, size_t message_capacity);

/* How a PNG writer encodes. */
typedef struct {
    int channels;     /* rows: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA */
    int bit_depth;    /* 8, or 16 with samples in host byte order */
    int compression;  /* zlib level 0...9 */
    int effort;       /* row filters, as dr_png_filter_options.effort */
    int palette;      /* 8-bit RGB(A) only: keep the rows and, when at most 256 colours are used
                       * (alpha in tRNS), write an indexed PNG; otherwise as `channels` says */
    int to_file;      /* write into `fd` as for JPEG (a palette candidate writes at finish) */
    int fd;
} dr_png_write_options;

/* How a PNG's rows are filtered before deflate. */
typedef struct {
    int bytes_per_pixel;  /* channels × bytes a sample */
    int sixteen_bit;      /* 16-bit samples in host byte order (PNG holds them big-endian) */
    int effort;           /* 0: rows unfiltered, full deflate (flat graphics); 1: a filter per
                           * row (libpng's choice: the least sum of the filtered bytes'
                           * magnitudes), deflate matching runs only (photos, fastest); 2: a
                           * filter per row, full deflate */
} dr_png_filter_options;

/* A strip's image data deflated on its own (see dr_png_segment_make). */
typedef struct {
    size_t length;      /* deflated bytes */
    size_t raw_length;  /* the filtered bytes they hold: rows × (row bytes + 1) */
    uint32_t adler;     /* Adler-32 of the filtered bytes */
    int rows;
    int final;          /* ends the image data (the image's last strip) */
} dr_png_segment;

/* The most bytes dr_png_segment_make writes for rows of `raw_length` filtered bytes. */
size_t dr_png_segment_bound(size_t raw_length, int level);

/* Filters `count` rows (`stride` bytes apart, the first as if nothing were above it) and
 * deflates them at zlib `level` into `out` (dr_png_segment_bound bytes) as a segment that ends
 * on a byte boundary: a sync flush, or with `last` the final block. Thread-safe: it is called
 * on the threads that render the strips. */
dr_status dr_png_segment_make(const unsigned char *rows, size_t stride, size_t row_bytes, int count,
                              const dr_png_filter_options *options, int level, int last,
                              unsigned char *out, size_t capacity, dr_png_segment *segment,
                              char *message, size_t message_capacity);

/* Appends a segment (its `segment->length` bytes) to a PNG writer's image data, after the
 * rows before it; a palette candidate takes rows (dr_writer_write_rows), not segments. */
dr_status dr_png_write_segment(dr_writer *writer, const dr_png_segment *segment, const unsigned char *bytes,
                               char *message, size_t message_capacity);

/* A PNG writer; the metadata (may be NULL) goes into eXIf, iTXt XML:com.adobe.xmp and a zTXt
 * "Raw profile type iptc" chunk (as ImageMagick writes it). */
dr_status dr_png_writer_open(int width, int height, const dr_png_write_options *options,
                             const dr_metadata *metadata, dr_writer **writer,
                             char *message, size_t message_capacity);

/* How a WebP writer encodes (libwebp). Rows are 3 (RGB) or 4 (RGBA, straight) bytes a pixel. */
typedef struct {
    int channels;
    float quality;   /* 0...100: lossy quality, or (lossless) how hard to compress */
    int lossless;
    int effort;      /* libwebp's method, 0 (fastest) ... 6 (smallest) */
    int animated;    /* frames ended by dr_writer_end_frame, encoded as an animation (WebPAnimEncoder) */
    int loop_count;  /* animated: times played, 0 forever */
} dr_webp_write_options;

/* A WebP writer: it keeps the rows (as libwebp's ARGB picture) and encodes at finish; the
 * metadata (may be NULL) and ICC profile go into EXIF, XMP and ICCP chunks (libwebpmux). */
dr_status dr_webp_writer_open(int width, int height, const dr_webp_write_options *options,
                              const dr_metadata *metadata, dr_writer **writer,
                              char *message, size_t message_capacity);

/* How an AVIF writer encodes (8-bit: libheif with libaom; 10-bit: libavif with libaom). Rows
 * are 3 or 4 samples a pixel, 8-bit, or for bit_depth 10 16-bit in host order. */
typedef struct {
    int channels;
    int quality;     /* 0...100 */
    int speed;       /* libaom's cpu-used, 0 (slowest, smallest) ... 9 */
    int bit_depth;   /* 8 or 10 (libheif 1.15 aborts on 10-bit, so that goes through libavif) */
    int orientation; /* EXIF orientation 1...8 of the rows, written as irot/imir (libheif) */
} dr_avif_write_options;

/* An AVIF writer: it keeps the rows and encodes at finish; metadata as for WebP (Exif and XMP
 * items, the colour profile as a 'prof' property). */
dr_status dr_avif_writer_open(int width, int height, const dr_avif_write_options *options,
                              const dr_metadata *metadata, dr_writer **writer,
                              char *message, size_t message_capacity);

/* How a GIF writer encodes (libimagequant palettes, cgif). Rows are 3 (RGB) or 4 (RGBA,
 * straight) bytes a pixel; alpha below 128 is transparent, the rest opaque. */
typedef struct {
    int channels;
    int colors;      /* palette entries a frame, 2...256 */
    float dither;    /* Floyd-Steinberg strength, 0 (none) ... 1 */
    int effort;      /* libimagequant's effort, 1 (fastest) ... 10 (its speed 11 - effort) */
    int loop_count;  /* times an animation is played: 0 forever, 1 once (no NETSCAPE2.0 block) */
    int to_file;     /* write into `fd` as cgif makes the file, as for JPEG */
    int fd;
} dr_gif_write_options;

/* A GIF writer: it keeps one frame's rows, and builds that frame's own palette with
 * libimagequant when the frame ends (dr_writer_end_frame, or the end of a still image); cgif
 * holds the palette indices of its last three frames to optimise each against the one before. */
dr_status dr_gif_writer_open(int width, int height, const dr_gif_write_options *options, dr_writer **writer,
                             char *message, size_t message_capacity);

/* How a JPEG XL writer encodes (libjxl). Rows are 3 (RGB) or 4 (RGBA, straight) samples a
 * pixel, 8-bit or, for bit_depth 16, 16-bit in host order. */
typedef struct {
    int channels;
    int bit_depth;    /* 8 or 16 */
    float distance;   /* lossy: butteraugli distance, 0.1 (near-lossless) ... 15; 1 is visually lossless */
    int effort;       /* 1 (fastest) ... 9 (smallest); cjxl's default is 7 */
    int lossless;     /* modular lossless: the samples come back exactly */
    int orientation;  /* EXIF orientation 1...8 of the rows, written as the codestream's */
} dr_jxl_write_options;

/* A JPEG XL writer: it keeps the rows and encodes at finish (libjxl 0.7 takes whole frames); the
 * metadata (may be NULL) goes into Exif and xml boxes, the ICC profile into the codestream. */
dr_status dr_jxl_writer_open(int width, int height, const dr_jxl_write_options *options,
                             const dr_metadata *metadata, dr_writer **writer,
                             char *message, size_t message_capacity);

/* A JPEG transcoded into JPEG XL without decoding its pixels: the DCT coefficients recoded
 * losslessly, with what reconstructs the original file byte for byte (its markers, metadata
 * and entropy coding, in a jbrd box). DR_UNSUPPORTED for a JPEG libjxl cannot keep
 * (arithmetic-coded, CMYK, 12-bit). `out` is filled (free with dr_buffer_free). */
dr_status dr_jxl_transcode_jpeg(const unsigned char *jpeg, size_t length, int effort, dr_buffer *out,
                                char *message, size_t message_capacity);

/* TIFF compressions (the TIFF tag values). */
enum { DR_TIFF_NONE = 1, DR_TIFF_LZW = 5, DR_TIFF_JPEG = 7, DR_TIFF_DEFLATE = 8 };

/* How a TIFF writer encodes (libtiff). */
typedef struct {
    int channels;     /* 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA (unassociated alpha) */
    int bit_depth;    /* 8, or 16 with samples in host byte order */
    int compression;  /* DR_TIFF_*; JPEG is 8-bit only */
    int quality;      /* JPEG compression's quality */
    int tiled;        /* 256×256 tiles instead of strips */
    int orientation;  /* the Orientation tag, 1...8: how viewers turn pixels left as stored */
    int to_file;      /* write into `fd` (pwrite, from offset 0) as strips are made, instead of
                       * memory: dr_writer_end then gives the length and there is nothing to take */
    int fd;
} dr_tiff_write_options;

/* Rows in a deflate-compressed striped TIFF's strip, and its deflate level (libtiff's default). */
#define DR_TIFF_DEFLATE_ROWS 16
#define DR_TIFF_DEFLATE_LEVEL 6

/* The most bytes dr_tiff_deflate_strip writes for `raw_length` bytes of rows. */
size_t dr_tiff_deflate_bound(size_t raw_length);

/* One strip of a deflate TIFF (`count` rows, at most DR_TIFF_DEFLATE_ROWS, `row_bytes` apart;
 * `samples` a pixel, 8-bit or 16-bit in host order): the horizontal predictor, then a zlib
 * stream at `level` into `out`. Thread-safe: called on the threads that render the rows. */
dr_status dr_tiff_deflate_strip(const unsigned char *rows, size_t row_bytes, int count, int samples,
                                int sixteen_bit, int level, unsigned char *out, size_t capacity, size_t *length,
                                char *message, size_t message_capacity);

/* Writes the strips holding rows first_row..<first_row + rows (first_row a multiple of
 * DR_TIFF_DEFLATE_ROWS, right after the rows written): `bytes` their deflated strips one after
 * the other, lengths[i] bytes each. */
dr_status dr_tiff_write_deflated(dr_writer *writer, int first_row, int rows, const unsigned char *bytes,
                                 const size_t *lengths, char *message, size_t message_capacity);

/* A TIFF writer, strip by strip (or a row of tiles at a time); metadata as XMP and IPTC tags
 * (EXIF is not written), the ICC profile as the ICC tag. */
dr_status dr_tiff_writer_open(int width, int height, const dr_tiff_write_options *options,
                              const dr_metadata *metadata, dr_writer **writer,
                              char *message, size_t message_capacity);

/* Embeds an ICC profile (JPEG APP2 ICC_PROFILE chunks, PNG iCCP, WebP ICCP, AVIF prof, TIFF
 * ICC tag); call before the first row. */
dr_status dr_writer_set_icc(dr_writer *writer, const unsigned char *profile, size_t length,
                            char *message, size_t message_capacity);

/* Encodes the next `count` rows, `stride` bytes apart. */
dr_status dr_writer_write_rows(dr_writer *writer, const unsigned char *rows, size_t stride,
                               int count, char *message, size_t message_capacity);

/* Animated GIF and WebP: the rows written since the last call are a frame, shown for
 * `delay_ms`; the next rows start the next frame. DR_UNSUPPORTED for the other writers. */
dr_status dr_writer_end_frame(dr_writer *writer, int delay_ms, char *message, size_t message_capacity);

/* Ends the file after the last row; *length is its size in bytes. The bytes stay in the writer
 * until dr_writer_take (unless they went into the writer's file: nothing to take then). */
dr_status dr_writer_end(dr_writer *writer, size_t *length, char *message, size_t message_capacity);

/* Copies the ended file into `into` (*length bytes of dr_writer_end) and frees the writer's
 * copy; a TIFF's chunks are freed one by one as they are copied, so the file is never held
 * twice whole. */
void dr_writer_take(dr_writer *writer, unsigned char *into);

void dr_writer_close(dr_writer *writer);

void dr_buffer_free(dr_buffer *buffer);

/*
 * The frames of an animated GIF or WebP, one at a time, each composed on the full canvas with
 * the format's disposal and blending (animation.c). The bytes must stay unchanged while it
 * lives; a GIF's are passed again at every call and may move, a WebP's must stay at one address
 * (libwebpdemux keeps a pointer to them).
 */
typedef struct dr_animation dr_animation;

typedef struct {
    int width, height;  /* the canvas */
    int frames;
    int loop_count;     /* times played: 0 forever (a GIF's NETSCAPE2.0 count plus its first play) */
    int has_alpha;
    int converts_color; /* frames are converted from the file's ICC profile to sRGB */
} dr_animation_info;

/* Checks the canvas against options->max_pixels before any pixel memory (and honours
 * options->deadline_ns); with options->convert_to_srgb, a WebP's frames are converted from its
 * ICC profile to sRGB (options->intent) as a still WebP's rows are; the other options do not apply. */
dr_status dr_animation_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                            dr_animation_info *info, dr_animation **animation, char *message, size_t message_capacity);

/* The next frame: *canvas points at width × height straight RGBA pixels until the next call, and
 * *delay_ms is how long it shows; *canvas is NULL after the last frame. */
dr_status dr_animation_next(dr_animation *animation, const unsigned char *bytes, size_t length,
                            const unsigned char **canvas, int *delay_ms, char *message, size_t message_capacity);

void dr_animation_close(dr_animation *animation);

/*
 * `count` premultiplied float RGBA pixels to 8-bit RGB, clamped to 0…1 and rounded to nearest
 * once: composited over white first when `over_white` (JPEG), alpha dropped otherwise (an
 * opaque image's PNG).
 */
void dr_quantise_rgb(const float *pixels, size_t count, int over_white, unsigned char *out);

/* The same to one 8-bit grey sample a pixel: the mean of R, G and B (equal in a grey image). */
void dr_quantise_grey(const float *pixels, size_t count, int over_white, unsigned char *out);

/* `count` pixels of 8-bit RGB to float RGBA in 0…1, alpha 1 (an opaque image needs no
 * premultiplying). */
void dr_expand_rgb8(const unsigned char *rgb, size_t count, float *pixels);

/* What an ICC profile is, as Little CMS reads it. */
typedef struct {
    int usable;            /* lcms reads it and can convert from it to sRGB */
    int color_space;       /* dr_color_space of the data it describes (0: none darkroom reads) */
    int is_srgb;           /* sRGB in all but its bytes: no sample of a test grid moves by more
                            * than one 8-bit level through it; such images are not converted */
    char description[128]; /* its 'desc' tag (may be empty) */
    char problem[160];     /* why it is unusable */
} dr_icc_summary;

void dr_icc_inspect(const unsigned char *profile, size_t length, int intent, dr_icc_summary *summary);

/* The compact sRGB profile (Little CMS's, ICC v4, under 600 bytes) outputs are tagged with;
 * made once, never freed. */
const unsigned char *dr_icc_srgb(size_t *length);

/* The CMYK profile assumed for CMYK images that carry none, or carry one that cannot be used:
 * FOGRA39 (ISO coated offset), made from Fogra's characterization data (see
 * scripts/make-default-cmyk-profile.sh). Static; never freed. */
const unsigned char *dr_default_cmyk_profile(size_t *length);

/* A grey profile with the sRGB tone curve, for one-channel outputs of sRGB pixels; made once. */
const unsigned char *dr_icc_srgb_grey(size_t *length);

/* The budget decoder helper threads are taken from (threads.c): `take` grants up to `wanted`
 * threads without waiting (possibly 0), `give` returns them. Set once, before decoding. */
typedef int (*dr_threads_take_fn)(int wanted);
typedef void (*dr_threads_give_fn)(int count);
void dr_set_thread_budget(dr_threads_take_fn take, dr_threads_give_fn give);

/* CLOCK_MONOTONIC in nanoseconds: the clock of dr_read_options.deadline_ns. */
uint64_t dr_monotonic_ns(void);

#endif
