/*
 * TIFF through libtiff, read as it is stored: a striped file scanline by scanline
 * (TIFFReadScanline decodes a strip progressively, so even a one-strip scan streams; a file of
 * many strips read in place decodes two at a time, the next on a thread of its own: tiff_strips.c), a tiled
 * one a row of tiles at a time. 8- and 16-bit grey, RGB, their alpha (associated alpha is
 * unpremultiplied) and 8- and 16-bit CMYK (16-bit RGB out) take this path; everything else libtiff can read (palette,
 * 1-bit, subsampled YCbCr, separate planes, ...) goes through TIFFRGBAImage, 8-bit, a strip or
 * a row of tiles at a time. Only the first page (directory) is read; info->pages counts them.
 */
#include "tiff_io.h"
#include "tiff_strips.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the first directory declares, as the reader needs it. */
typedef struct {
    uint32_t width, height;
    uint16_t spp, bps, photometric, planar, compression, orientation, inkset, sample_format;
    uint16_t extra_count;
    uint16_t *extra; /* libtiff's array */
    int tiled;
} tiff_layout;

static void read_layout(TIFF *tif, tiff_layout *l) {
    memset(l, 0, sizeof *l);
    dr_tiff.TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &l->width);
    dr_tiff.TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &l->height);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &l->spp);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &l->bps);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &l->planar);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &l->compression);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &l->sample_format);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &l->inkset);
    dr_tiff.TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &l->extra_count, &l->extra);
    if (!dr_tiff.TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &l->photometric))
        l->photometric = l->spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    if (!dr_tiff.TIFFGetField(tif, TIFFTAG_ORIENTATION, &l->orientation)) l->orientation = ORIENTATION_TOPLEFT;
    l->tiled = dr_tiff.TIFFIsTiled(tif);
}

/* Colour samples before the extra ones. */
static int colour_samples(const tiff_layout *l) {
    switch (l->photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE: return 1;
    case PHOTOMETRIC_SEPARATED: return 4;
    default: return 3;
    }
}

/* The first extra sample is alpha (associated: 1, unassociated: 2), or none (0). */
static int alpha_kind(const tiff_layout *l) {
    if (l->extra_count < 1 || l->spp <= colour_samples(l)) return 0;
    if (l->extra[0] == EXTRASAMPLE_ASSOCALPHA) return 1;
    if (l->extra[0] == EXTRASAMPLE_UNASSALPHA) return 2;
    return 0;
}

static void copy_blob(TIFF *tif, uint32_t tag, unsigned char **to, size_t *to_length) {
    uint32_t count = 0;
    void *data = NULL;
    if (dr_tiff.TIFFGetField(tif, tag, &count, &data) && data != NULL && count > 0)
        dr_metadata_keep(to, to_length, data, count);
}

static dr_status describe(TIFF *tif, dr_tiff_io *io, dr_info *info, tiff_layout *l) {
    read_layout(tif, l);
    info->format = DR_FORMAT_TIFF;
    info->width = (int)(l->width > 0x7fffffff ? 0x7fffffff : l->width);
    info->height = (int)(l->height > 0x7fffffff ? 0x7fffffff : l->height);
    info->channels = l->spp;
    info->bit_depth = l->bps;
    info->has_alpha = alpha_kind(l) != 0;
    info->orientation = l->orientation >= 1 && l->orientation <= 8 ? l->orientation : 1;
    switch (l->photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE: info->color_space = DR_SPACE_GRAY; break;
    case PHOTOMETRIC_RGB:
    case PHOTOMETRIC_YCBCR: info->color_space = DR_SPACE_RGB; break;
    case PHOTOMETRIC_SEPARATED: info->color_space = DR_SPACE_CMYK; break;
    case PHOTOMETRIC_PALETTE: info->color_space = DR_SPACE_PALETTE; break;
    default: info->color_space = 0; break;
    }
    if (l->width == 0 || l->height == 0) {
        io->status = DR_CORRUPT;
        dr_set_message(io->message, io->capacity, "TIFF: the image has no width or height");
        return DR_CORRUPT;
    }
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (dr_tiff.TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL && icc_length > 0) {
        info->has_icc = 1;
        if (!dr_info_store_icc(info, icc, icc_length)) return DR_OUT_OF_MEMORY;
    }
    if (info->metadata != NULL) {
        copy_blob(tif, TIFFTAG_XMLPACKET, &info->metadata->xmp, &info->metadata->xmp_length);
        copy_blob(tif, TIFFTAG_RICHTIFFIPTC, &info->metadata->iptc, &info->metadata->iptc_length);
        uint32_t count = 0;
        void *resources = NULL;
        if (info->metadata->iptc == NULL && dr_tiff.TIFFGetField(tif, TIFFTAG_PHOTOSHOP, &count, &resources) && resources != NULL)
            dr_find_iptc_resource(resources, count, info->metadata);
    }
    if (info->metadata != NULL || info->exif != NULL) {
        /* IFD0's picture tags and the EXIF/GPS IFDs, as the EXIF block of a JPEG carries them. */
        unsigned char *exif = NULL;
        size_t exif_length = 0;
        if (dr_tiff_exif_collect(io, &exif, &exif_length)) {
            dr_info_store_exif(info, exif, exif_length);
            if (info->metadata != NULL) dr_metadata_keep(&info->metadata->exif, &info->metadata->exif_length, exif, exif_length);
            free(exif);
        }
    }
    tdir_t pages = dr_tiff.TIFFNumberOfDirectories(tif);
    info->pages = pages < 1 ? 1 : (int)pages;
    return DR_OK;
}

static dr_status read_info(dr_tiff_io io, dr_info *info) {
    TIFF *tif = dr_tiff_open(&io, "rm");
    if (tif == NULL) return io.status;
    tiff_layout layout;
    dr_status status = describe(tif, &io, info, &layout);
    dr_tiff.TIFFClose(tif);
    return status;
}

dr_status dr_tiff_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity) {
    return read_info((dr_tiff_io){.bytes = bytes, .length = length, .message = message, .capacity = capacity}, info);
}

/* ---- reader ---- */

typedef struct {
    dr_reader base; /* first: the generic reader */
    TIFF *tif;
    dr_tiff_io io;
    tiff_layout layout;
    uint64_t deadline_ns;
    int next_row;      /* the next file row delivered */
    int crop_x, crop_y;
    int alpha;         /* alpha_kind */
    int cmyk;
    int direct;        /* the direct path (not TIFFRGBAImage) */
    size_t in_pixel;   /* bytes of one stored pixel (direct path) */
    /* A band of decoded file rows: a row of tiles, or TIFFRGBAImage's rows. */
    unsigned char *band;
    int band_y, band_rows, band_capacity;
    size_t band_stride;
    unsigned char *row;  /* one stored row (direct, striped) or one converted row */
    unsigned char *cmyk_row;
    TIFFRGBAImage rgba;
    int rgba_begun;
    /* Whole strips, two decoding at once (striped direct path of a file read in place). */
    dr_tiff_prefetch *prefetch;
    unsigned char *strip;           /* the strip this thread decodes */
    tmsize_t strip_bytes;
    size_t scanline;
    uint32_t rows_per_strip, strips;
    const unsigned char *strip_rows; /* the current strip's rows: `strip` or the helper's buffer */
    int strip_y0, strip_nrows;
} tiff_reader;

static void tiff_reader_close(dr_reader *base) {
    tiff_reader *r = (tiff_reader *)base;
    dr_tiff_prefetch_close(r->prefetch);
    free(r->strip);
    if (r->rgba_begun) dr_tiff.TIFFRGBAImageEnd(&r->rgba);
    if (r->tif != NULL) dr_tiff.TIFFClose(r->tif);
    dr_color_converter_free(r->base.color);
    free(r->band);
    free(r->row);
    free(r->cmyk_row);
    free(r);
}

/* Whether the direct path reads this layout. */
static int direct_layout(const tiff_layout *l) {
    if (l->planar != PLANARCONFIG_CONTIG || l->sample_format == SAMPLEFORMAT_IEEEFP ||
        l->sample_format == SAMPLEFORMAT_INT)
        return 0;
    int colour = colour_samples(l);
    if (l->spp < colour) return 0;
    switch (l->photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE:
    case PHOTOMETRIC_RGB: return l->bps == 8 || l->bps == 16;
    case PHOTOMETRIC_YCBCR: return l->compression == COMPRESSION_JPEG && l->bps == 8; /* libjpeg gives RGB */
    case PHOTOMETRIC_SEPARATED: return l->inkset == INKSET_CMYK && (l->bps == 8 || l->bps == 16);
    default: return 0;
    }
}

static dr_status fail(tiff_reader *r, dr_status status, const char *text) {
    if (r->io.status == DR_OK) {
        r->io.status = status;
        dr_set_message(r->io.message, r->io.capacity, "%s", text);
    }
    return r->io.status;
}

/* One stored row of the direct path to the delivered RGB(A) layout. */
static void convert_direct(tiff_reader *r, const unsigned char *in, unsigned char *out) {
    const tiff_layout *l = &r->layout;
    int w = r->base.width, spp = l->spp, channels = r->base.channels;
    const unsigned char *src = in + (size_t)r->crop_x * r->in_pixel;
    if (r->cmyk) {
        /* The four inks of each pixel (extra samples dropped), 8 or 16 bits each. */
        size_t sample = (size_t)r->base.bytes_per_sample, ink = 4 * sample;
        const unsigned char *inks = src;
        if (spp != 4) {
            for (int x = 0; x < w; x++) memcpy(r->cmyk_row + ink * (size_t)x, src + (size_t)x * r->in_pixel, ink);
            inks = r->cmyk_row;
        }
        if (r->base.color != NULL) {
            dr_color_converter_cmyk(r->base.color, inks, out, (size_t)w);
        } else if (sample == 1) {
            dr_cmyk_to_rgb(inks, out, w, 0);
        } else {
            /* The naive formula at 16 bits (only when no conversion was asked for). */
            const uint16_t *p = (const uint16_t *)(const void *)inks;
            uint16_t *o = (uint16_t *)(void *)out;
            for (int x = 0; x < w; x++, p += 4, o += 3) {
                uint32_t k = 65535u - p[3];
                for (int c = 0; c < 3; c++) o[c] = (uint16_t)(((65535u - p[c]) * k + 32767u) / 65535u);
            }
        }
        return;
    }
    int grey = colour_samples(l) == 1, invert = l->photometric == PHOTOMETRIC_MINISWHITE;
    int alpha_at = grey ? 1 : 3;
    if (l->bps == 16) {
        const uint16_t *s = (const uint16_t *)(const void *)src;
        uint16_t *o = (uint16_t *)(void *)out;
        for (int x = 0; x < w; x++, s += spp, o += channels) {
            if (grey) {
                uint16_t g = invert ? (uint16_t)(65535 - s[0]) : s[0];
                o[0] = o[1] = o[2] = g;
            } else {
                o[0] = s[0]; o[1] = s[1]; o[2] = s[2];
            }
            if (channels == 4) o[3] = s[alpha_at];
        }
    } else {
        const unsigned char *s = src;
        unsigned char *o = out;
        for (int x = 0; x < w; x++, s += spp, o += channels) {
            if (grey) {
                unsigned char g = invert ? (unsigned char)(255 - s[0]) : s[0];
                o[0] = o[1] = o[2] = g;
            } else {
                o[0] = s[0]; o[1] = s[1]; o[2] = s[2];
            }
            if (channels == 4) o[3] = s[alpha_at];
        }
    }
    if (r->alpha == 1) dr_unpremultiply(out, (size_t)w, r->base.bytes_per_sample);
}

/* Decodes the band of file rows holding `y` (tiled direct path, or TIFFRGBAImage). */
static dr_status load_band(tiff_reader *r, int y) {
    const tiff_layout *l = &r->layout;
    int band = r->band_capacity;
    int y0 = y - y % band;
    int rows = (int)l->height - y0 < band ? (int)l->height - y0 : band;
    if (r->direct) {
        uint32_t tw = 0, th = 0;
        dr_tiff.TIFFGetField(r->tif, TIFFTAG_TILEWIDTH, &tw);
        dr_tiff.TIFFGetField(r->tif, TIFFTAG_TILELENGTH, &th);
        tmsize_t tile_bytes = dr_tiff.TIFFTileSize(r->tif);
        unsigned char *tile = malloc((size_t)tile_bytes);
        if (tile == NULL) return fail(r, DR_OUT_OF_MEMORY, "out of memory for a TIFF tile");
        size_t tile_row = (size_t)tw * r->in_pixel;
        for (uint32_t x = 0; x < l->width; x += tw) {
            if (dr_tiff.TIFFReadEncodedTile(r->tif, dr_tiff.TIFFComputeTile(r->tif, x, (uint32_t)y0, 0, 0), tile, tile_bytes) < 0) {
                free(tile);
                return fail(r, DR_CORRUPT, "TIFF: a tile could not be decoded");
            }
            size_t n = (size_t)((l->width - x) < tw ? (l->width - x) : tw) * r->in_pixel;
            for (int i = 0; i < rows; i++)
                memcpy(r->band + r->band_stride * (size_t)i + (size_t)x * r->in_pixel, tile + tile_row * (size_t)i, n);
        }
        free(tile);
    } else {
        r->rgba.row_offset = y0;
        r->rgba.col_offset = 0;
        if (!dr_tiff.TIFFRGBAImageGet(&r->rgba, (uint32_t *)(void *)r->band, l->width, (uint32_t)rows))
            return fail(r, DR_CORRUPT, "TIFF: the image data could not be decoded");
    }
    r->band_y = y0;
    r->band_rows = rows;
    return DR_OK;
}

/* Makes the strip holding file row `y` current: the helper's when it was asked for it, else
 * decoded here while the helper starts on the one after. */
static dr_status next_strip(tiff_reader *r, int y) {
    uint32_t strip = (uint32_t)y / r->rows_per_strip;
    int y0 = (int)(strip * r->rows_per_strip);
    int rows = (int)r->layout.height - y0 < (int)r->rows_per_strip ? (int)r->layout.height - y0 : (int)r->rows_per_strip;
    tmsize_t got;
    const unsigned char *data;
    if (dr_tiff_prefetch_requested(r->prefetch) == (long)strip) {
        dr_status status;
        data = dr_tiff_prefetch_wait(r->prefetch, &got, &status, r->io.message, r->io.capacity);
        if (status != DR_OK && r->io.status == DR_OK) r->io.status = status; /* its message is in place */
    } else {
        if (strip + 1 < r->strips) dr_tiff_prefetch_start(r->prefetch, strip + 1);
        got = dr_tiff.TIFFReadEncodedStrip(r->tif, strip, r->strip, r->strip_bytes);
        data = r->strip;
    }
    if (r->io.status != DR_OK) return r->io.status;
    if (got < (tmsize_t)((size_t)rows * r->scanline)) return fail(r, DR_CORRUPT, "TIFF: a strip could not be decoded");
    r->strip_rows = data;
    r->strip_y0 = y0;
    r->strip_nrows = rows;
    return DR_OK;
}

/* One TIFFRGBAImage row (premultiplied RGBA, 8-bit) to the delivered layout. */
static void convert_rgba(tiff_reader *r, const unsigned char *in, unsigned char *out) {
    const unsigned char *src = in + 4 * (size_t)r->crop_x;
    int w = r->base.width;
    if (r->base.channels == 4) {
        memcpy(out, src, 4 * (size_t)w);
        dr_unpremultiply(out, (size_t)w, 1);
    } else {
        for (int x = 0; x < w; x++) memcpy(out + 3 * x, src + 4 * x, 3);
    }
}

static dr_status tiff_read_rows(dr_reader *base, unsigned char *rows, size_t stride, int count,
                                char *message, size_t capacity) {
    tiff_reader *r = (tiff_reader *)base;
    if (r->io.status != DR_OK) {
        dr_set_message(message, capacity, "the TIFF reader failed earlier");
        return r->io.status;
    }
    dr_tiff_rearm(&r->io, message, capacity);
    r->io.bytes = r->base.bytes;
    if (r->deadline_ns != 0 && dr_monotonic_ns() > r->deadline_ns)
        return fail(r, DR_CANCELLED, "decoding ran past the time limit");
    int striped_direct = r->direct && !r->layout.tiled, whole_strips = striped_direct && r->prefetch != NULL;
    /* A striped file: the rows above the crop are decoded and dropped (scanlines come in order). */
    while (striped_direct && !whole_strips && r->next_row < r->crop_y) {
        if (dr_tiff.TIFFReadScanline(r->tif, r->row, (uint32_t)r->next_row, 0) < 0)
            return fail(r, DR_CORRUPT, "TIFF: a row could not be decoded");
        r->next_row++;
    }
    if ((!striped_direct || whole_strips) && r->next_row < r->crop_y) r->next_row = r->crop_y;
    for (int i = 0; i < count; i++, r->next_row++) {
        unsigned char *target = rows + stride * (size_t)i;
        int y = r->next_row;
        if (y >= (int)r->layout.height) return fail(r, DR_CORRUPT, "TIFF: more rows asked for than the image has");
        if (whole_strips) {
            if (y < r->strip_y0 || y >= r->strip_y0 + r->strip_nrows) {
                dr_status status = next_strip(r, y);
                if (status != DR_OK) return status;
            }
            convert_direct(r, r->strip_rows + r->scanline * (size_t)(y - r->strip_y0), target);
        } else if (striped_direct) {
            if (dr_tiff.TIFFReadScanline(r->tif, r->row, (uint32_t)y, 0) < 0)
                return fail(r, DR_CORRUPT, "TIFF: a row could not be decoded");
            convert_direct(r, r->row, target);
        } else {
            if (y < r->band_y || y >= r->band_y + r->band_rows) {
                dr_status status = load_band(r, y);
                if (status != DR_OK) return status;
            }
            const unsigned char *in = r->band + r->band_stride * (size_t)(y - r->band_y);
            if (r->direct) convert_direct(r, in, target); else convert_rgba(r, in, target);
        }
        /* libtiff reports some decoding problems through the handler and still returns data. */
        if (r->io.status != DR_OK) return r->io.status;
        if (r->base.color != NULL && !r->cmyk) dr_color_converter_rows(r->base.color, target, (size_t)r->base.width);
    }
    return DR_OK;
}

/* Whole strips two at a time when the file is read in place and has several strips of a
 * reasonable size (JPEG strips keep the scanline path: their colour mode is set per handle). */
static void start_prefetch(tiff_reader *r, tmsize_t scanline) {
    const tiff_layout *l = &r->layout;
    if (!r->io.file || scanline <= 0 || l->compression == COMPRESSION_JPEG || l->compression == COMPRESSION_OJPEG) return;
    uint32_t rows = 0;
    dr_tiff.TIFFGetFieldDefaulted(r->tif, TIFFTAG_ROWSPERSTRIP, &rows);
    uint32_t strips = dr_tiff.TIFFNumberOfStrips(r->tif);
    tmsize_t bytes = dr_tiff.TIFFStripSize(r->tif);
    if (rows == 0 || rows >= l->height || strips < 2 || bytes <= 0 || bytes > ((tmsize_t)64 << 20) ||
        (uint64_t)strips * rows < l->height || bytes < (tmsize_t)rows * scanline)
        return;
    r->strip = malloc((size_t)bytes);
    if (r->strip != NULL) r->prefetch = dr_tiff_prefetch_open(&r->io, bytes);
    if (r->prefetch == NULL) {
        free(r->strip);
        r->strip = NULL;
        return;
    }
    r->strip_bytes = bytes;
    r->scanline = (size_t)scanline;
    r->rows_per_strip = rows;
    r->strips = strips;
    r->strip_y0 = -1;
}

static dr_status reader_open(dr_tiff_io io, const dr_read_options *options, dr_info *info, dr_reader **out,
                             char *message, size_t capacity) {
    tiff_reader *r = calloc(1, sizeof *r);
    if (r == NULL) return DR_OUT_OF_MEMORY;
    r->base.format = DR_FORMAT_TIFF;
    r->base.read_rows = tiff_read_rows;
    r->base.close = tiff_reader_close;
    r->base.bytes = io.bytes;
    r->io = io;
    r->tif = dr_tiff_open(&r->io, "rm");
    dr_status status = r->tif == NULL ? r->io.status : describe(r->tif, &r->io, info, &r->layout);
    if (status == DR_OK && !dr_fits(info, options->max_pixels))
        status = dr_too_large(info, options->max_pixels, message, capacity);
    tiff_layout *l = &r->layout;
    if (status == DR_OK) {
        r->direct = direct_layout(l);
        if (l->photometric == PHOTOMETRIC_YCBCR && r->direct) dr_tiff.TIFFSetField(r->tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        char problem[1024] = "";
        if (!r->direct && !dr_tiff.TIFFRGBAImageOK(r->tif, problem)) {
            dr_set_message(message, capacity, "TIFF: %s", problem[0] ? problem : "this layout is not supported");
            status = DR_UNSUPPORTED;
        }
    }
    if (status != DR_OK) {
        tiff_reader_close(&r->base);
        return status;
    }
    r->alpha = alpha_kind(l);
    r->cmyk = r->direct && l->photometric == PHOTOMETRIC_SEPARATED;
    r->deadline_ns = options->deadline_ns;
    dr_reader_window(&r->base, options, info, &r->crop_x, &r->crop_y);
    r->base.bytes_per_sample = r->direct && l->bps == 16 ? 2 : 1;
    r->base.channels = r->alpha && !r->cmyk ? 4 : 3;
    r->in_pixel = (size_t)l->spp * (l->bps / 8 > 0 ? (size_t)(l->bps / 8) : 1);
    size_t row_bytes = (size_t)l->width * (r->direct ? r->in_pixel : 4);
    r->band_y = -1;
    if (r->direct && !l->tiled) {
        tmsize_t scanline = dr_tiff.TIFFScanlineSize(r->tif);
        r->row = malloc(scanline > 0 ? (size_t)scanline : row_bytes);
        start_prefetch(r, scanline);
    } else {
        uint32_t band = 0;
        if (l->tiled) dr_tiff.TIFFGetField(r->tif, TIFFTAG_TILELENGTH, &band);
        else dr_tiff.TIFFGetFieldDefaulted(r->tif, TIFFTAG_ROWSPERSTRIP, &band);
        if (band == 0 || band > l->height) band = l->height;
        if (!r->direct && band < 16) band = l->height < 16 ? l->height : 16;
        r->band_capacity = (int)band;
        r->band_stride = row_bytes;
        r->band = malloc(row_bytes * band);
        if (!r->direct) {
            char problem[1024] = "";
            if (!dr_tiff.TIFFRGBAImageBegin(&r->rgba, r->tif, 0, problem)) {
                dr_set_message(message, capacity, "TIFF: %s", problem);
                tiff_reader_close(&r->base);
                return DR_UNSUPPORTED;
            }
            r->rgba_begun = 1;
            r->rgba.req_orientation = r->rgba.orientation; /* rows as stored: darkroom applies the orientation */
            /* TIFFRGBAImage takes an unspecified extra sample for alpha; darkroom follows the
             * header (info->has_alpha), which the pipeline was planned from. */
            r->alpha = r->rgba.alpha != 0 && info->has_alpha ? 1 : 0;
            r->base.channels = r->alpha ? 4 : 3;
        }
    }
    if (r->cmyk) r->cmyk_row = malloc(4 * (size_t)r->base.bytes_per_sample * (size_t)l->width);
    if ((r->direct && !l->tiled ? r->row == NULL : r->band == NULL) || (r->cmyk && r->cmyk_row == NULL)) {
        tiff_reader_close(&r->base);
        dr_set_message(message, capacity, "out of memory for TIFF rows");
        return DR_OUT_OF_MEMORY;
    }
    int space = r->cmyk ? DR_SPACE_CMYK : info->color_space == DR_SPACE_GRAY ? DR_SPACE_GRAY : DR_SPACE_RGB;
    r->base.color = dr_reader_color_setup(&r->base, info, options, space, r->base.channels, 0);
    memcpy(info->warning, r->base.warning, sizeof info->warning);
    *out = &r->base;
    return DR_OK;
}

dr_status dr_tiff_reader_open(const unsigned char *bytes, size_t length, const dr_read_options *options,
                              dr_info *info, dr_reader **out, char *message, size_t capacity) {
    dr_tiff_io io = {.bytes = bytes, .length = length, .message = message, .capacity = capacity};
    return reader_open(io, options, info, out, message, capacity);
}

/* ---- in place, through a descriptor ---- */

/* Whether the file at `fd` starts like a TIFF; DR_UNSUPPORTED (or the read's error) otherwise. */
dr_status dr_tiff_read_info_file(int fd, uint64_t length, dr_info *info, char *message, size_t capacity) {
    return read_info((dr_tiff_io){.file = 1, .fd = fd, .length = (size_t)length, .message = message,
                                  .capacity = capacity}, info);
}

dr_status dr_tiff_reader_open_file(int fd, uint64_t length, const dr_read_options *options, dr_info *info,
                                   dr_reader **out, char *message, size_t capacity) {
    dr_tiff_io io = {.file = 1, .fd = fd, .length = (size_t)length, .message = message, .capacity = capacity};
    return reader_open(io, options, info, out, message, capacity);
}
