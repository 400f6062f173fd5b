/*
 * TIFF output through libtiff: striped files scanline by scanline, tiled ones a row of 256×256
 * tiles at a time, so the writer holds at most one row of tiles. LZW and deflate use the
 * horizontal predictor, as libvips does; striped deflate's strips are made apart (see
 * tiff_deflate.c) and written raw. Alpha is unassociated. EXIF goes in as EXIF and GPS
 * IFDs (tiff_exif.c), XMP, IPTC and the ICC profile as their tags.
 */
#include "tiff_io.h"

#include <stdlib.h>
#include <string.h>

#define TILE_SIDE 256

typedef struct {
    dr_writer base; /* first: the generic writer */
    TIFF *tif;
    dr_tiff_io io;
    dr_tiff_chunks out;
    int width, height, written, tiled;
    size_t row_bytes;
    unsigned char *row;  /* striped: a copy of the row (libtiff's predictor works in place);
                          * striped deflate: the rows of the strip being filled */
    int deflate;         /* striped deflate: strips made by dr_tiff_deflate_strip, written raw */
    int samples, sixteen_bit;
    unsigned char *strip; /* its deflated bytes */
    unsigned char *band; /* tiled: TILE_SIDE rows */
    unsigned char *tile;
} tiff_writer;

static void tiff_writer_close(dr_writer *base) {
    tiff_writer *w = (tiff_writer *)base;
    if (w->tif != NULL) dr_tiff.TIFFCleanup(w->tif);
    dr_tiff_chunks_free(&w->out);
    free(w->row);
    free(w->strip);
    free(w->band);
    free(w->tile);
    free(w);
}

static dr_status enter(tiff_writer *w, char *message, size_t capacity) {
    if (w->io.status != DR_OK) {
        dr_set_message(message, capacity, "the TIFF writer failed earlier");
        return w->io.status;
    }
    dr_tiff_rearm(&w->io, message, capacity);
    return DR_OK;
}

static dr_status failed(tiff_writer *w, const char *text) {
    if (w->io.status == DR_OK) {
        w->io.status = DR_ENCODE_FAILED;
        dr_set_message(w->io.message, w->io.capacity, "%s", text);
    }
    return w->io.status;
}

static dr_status tiff_set_icc(dr_writer *base, const unsigned char *profile, size_t length,
                              char *message, size_t capacity) {
    tiff_writer *w = (tiff_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->io.status;
    if (w->written > 0) return failed(w, "TIFF: the ICC profile must come before the rows");
    dr_tiff.TIFFSetField(w->tif, TIFFTAG_ICCPROFILE, (uint32_t)length, profile);
    return w->io.status;
}

/* Writes the band's rows as one row of tiles (padded with zeros past the edges). */
static dr_status flush_tiles(tiff_writer *w, int y0, int rows) {
    size_t pixel = w->row_bytes / (size_t)w->width;
    size_t tile_row = TILE_SIDE * pixel;
    for (int x = 0; x < w->width; x += TILE_SIDE) {
        size_t n = (size_t)(w->width - x < TILE_SIDE ? w->width - x : TILE_SIDE) * pixel;
        memset(w->tile, 0, tile_row * TILE_SIDE);
        for (int i = 0; i < rows; i++)
            memcpy(w->tile + tile_row * (size_t)i, w->band + w->row_bytes * (size_t)i + (size_t)x * pixel, n);
        if (dr_tiff.TIFFWriteEncodedTile(w->tif, dr_tiff.TIFFComputeTile(w->tif, (uint32_t)x, (uint32_t)y0, 0, 0), w->tile,
                                 (tmsize_t)(tile_row * TILE_SIDE)) < 0)
            return failed(w, "TIFF: a tile could not be encoded");
    }
    return w->io.status;
}

/* One deflated strip, as it goes into the file. */
static dr_status write_strip(tiff_writer *w, int index, const unsigned char *bytes, size_t length) {
    if (dr_tiff.TIFFWriteRawStrip(w->tif, (uint32_t)index, (void *)bytes, (tmsize_t)length) < 0)
        return failed(w, "TIFF: a strip could not be written");
    return w->io.status;
}

dr_status dr_tiff_write_deflated(dr_writer *base, int first_row, int rows, const unsigned char *bytes,
                                 const size_t *lengths, char *message, size_t capacity) {
    tiff_writer *w = (tiff_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->io.status;
    if (!w->deflate || first_row != w->written || first_row % DR_TIFF_DEFLATE_ROWS != 0 || rows > w->height - w->written)
        return failed(w, "TIFF: deflated strips out of place");
    int strips = (rows + DR_TIFF_DEFLATE_ROWS - 1) / DR_TIFF_DEFLATE_ROWS;
    for (int i = 0; i < strips; i++) {
        dr_status status = write_strip(w, first_row / DR_TIFF_DEFLATE_ROWS + i, bytes, lengths[i]);
        if (status != DR_OK) return status;
        bytes += lengths[i];
    }
    w->written += rows;
    return DR_OK;
}

static dr_status tiff_write_rows(dr_writer *base, const unsigned char *rows, size_t stride, int count,
                                 char *message, size_t capacity) {
    tiff_writer *w = (tiff_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->io.status;
    for (int i = 0; i < count; i++) {
        if (w->written >= w->height) return failed(w, "TIFF: more rows than the image has");
        const unsigned char *row = rows + stride * (size_t)i;
        if (w->tiled) {
            int in_band = w->written % TILE_SIDE;
            memcpy(w->band + w->row_bytes * (size_t)in_band, row, w->row_bytes);
            w->written++;
            if (in_band == TILE_SIDE - 1 || w->written == w->height) {
                dr_status status = flush_tiles(w, w->written - in_band - 1, in_band + 1);
                if (status != DR_OK) return status;
            }
        } else if (w->deflate) {
            int in_strip = w->written % DR_TIFF_DEFLATE_ROWS;
            memcpy(w->row + w->row_bytes * (size_t)in_strip, row, w->row_bytes);
            w->written++;
            if (in_strip == DR_TIFF_DEFLATE_ROWS - 1 || w->written == w->height) {
                size_t length = 0, room = dr_tiff_deflate_bound(w->row_bytes * DR_TIFF_DEFLATE_ROWS);
                dr_status status = dr_tiff_deflate_strip(w->row, w->row_bytes, in_strip + 1, w->samples, w->sixteen_bit,
                                                         DR_TIFF_DEFLATE_LEVEL, w->strip, room, &length, message, capacity);
                if (status != DR_OK) return w->io.status = status;
                status = write_strip(w, (w->written - 1) / DR_TIFF_DEFLATE_ROWS, w->strip, length);
                if (status != DR_OK) return status;
            }
        } else {
            memcpy(w->row, row, w->row_bytes);
            if (dr_tiff.TIFFWriteScanline(w->tif, w->row, (uint32_t)w->written, 0) < 0)
                return failed(w, "TIFF: a row could not be encoded");
            w->written++;
        }
        if (w->io.status != DR_OK) return w->io.status;
    }
    return DR_OK;
}

/* Ends the file: its bytes stay in the chunks until tiff_take. */
static dr_status tiff_end(dr_writer *base, size_t *length, char *message, size_t capacity) {
    tiff_writer *w = (tiff_writer *)base;
    if (enter(w, message, capacity) != DR_OK) return w->io.status;
    if (w->written != w->height) {
        dr_set_message(message, capacity, "TIFF: %d of %d rows were written", w->written, w->height);
        w->io.status = DR_ENCODE_FAILED;
        return DR_ENCODE_FAILED;
    }
    if (!dr_tiff.TIFFWriteDirectory(w->tif)) return failed(w, "TIFF: the directory could not be written");
    dr_tiff.TIFFClose(w->tif); /* flushes into the chunks */
    w->tif = NULL;
    if (w->io.status != DR_OK) return w->io.status;
    *length = w->out.length;
    return DR_OK;
}

static void tiff_take(dr_writer *base, unsigned char *into) {
    tiff_writer *w = (tiff_writer *)base;
    dr_tiff_chunks_take(&w->out, into);
}

dr_status dr_tiff_writer_open(int width, int height, const dr_tiff_write_options *options,
                              const dr_metadata *metadata, dr_writer **out, char *message, size_t capacity) {
    tiff_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return DR_OUT_OF_MEMORY;
    w->base.format = DR_FORMAT_TIFF;
    w->base.set_icc = tiff_set_icc;
    w->base.write_rows = tiff_write_rows;
    w->base.end = tiff_end;
    w->base.take = tiff_take;
    w->base.close = tiff_writer_close;
    w->width = width;
    w->height = height;
    w->io = (dr_tiff_io){.out = &w->out, .file = options->to_file != 0, .fd = options->fd, .message = message,
                         .capacity = capacity};
    int channels = options->channels < 1 ? 1 : options->channels > 4 ? 4 : options->channels;
    int depth = options->bit_depth == 16 ? 16 : 8;
    int compression = options->compression;
    if (compression != DR_TIFF_NONE && compression != DR_TIFF_LZW && compression != DR_TIFF_DEFLATE &&
        compression != DR_TIFF_JPEG)
        compression = DR_TIFF_NONE;
    if (compression == DR_TIFF_JPEG && depth != 8) {
        dr_set_message(message, capacity, "TIFF: JPEG compression holds 8-bit samples only");
        free(w);
        return DR_ENCODE_FAILED;
    }
    w->tiled = options->tiled != 0;
    w->row_bytes = (size_t)width * (size_t)channels * (size_t)(depth / 8);
    w->tif = dr_tiff_open(&w->io, "w");
    if (w->tif == NULL) {
        dr_status status = w->io.status;
        tiff_writer_close(&w->base);
        return status;
    }
    TIFF *t = w->tif;
    int colour = channels >= 3;
    int alpha = channels == 2 || channels == 4;
    dr_tiff.TIFFSetField(t, TIFFTAG_IMAGEWIDTH, (uint32_t)width);
    dr_tiff.TIFFSetField(t, TIFFTAG_IMAGELENGTH, (uint32_t)height);
    dr_tiff.TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)channels);
    dr_tiff.TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, (uint16_t)depth);
    dr_tiff.TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    dr_tiff.TIFFSetField(t, TIFFTAG_ORIENTATION, (uint16_t)(options->orientation >= 1 && options->orientation <= 8 ? options->orientation : 1));
    dr_tiff.TIFFSetField(t, TIFFTAG_COMPRESSION, (uint16_t)compression);
    /* TIFF 6 requires a resolution: 72 dpi, as libvips writes, unless the EXIF block says otherwise. */
    dr_tiff.TIFFSetField(t, TIFFTAG_XRESOLUTION, 72.0f);
    dr_tiff.TIFFSetField(t, TIFFTAG_YRESOLUTION, 72.0f);
    dr_tiff.TIFFSetField(t, TIFFTAG_RESOLUTIONUNIT, RESUNIT_INCH);
    if (alpha) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        dr_tiff.TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    if (compression == DR_TIFF_JPEG) {
        int quality = options->quality < 1 ? 1 : options->quality > 100 ? 100 : options->quality;
        dr_tiff.TIFFSetField(t, TIFFTAG_JPEGQUALITY, quality);
        if (colour && !alpha) {
            /* YCbCr 4:2:0 from RGB rows, as libvips writes JPEG-in-TIFF. */
            dr_tiff.TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR);
            dr_tiff.TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        } else {
            dr_tiff.TIFFSetField(t, TIFFTAG_PHOTOMETRIC, colour ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
        }
    } else {
        dr_tiff.TIFFSetField(t, TIFFTAG_PHOTOMETRIC, colour ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
        if (compression != DR_TIFF_NONE) dr_tiff.TIFFSetField(t, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    }
    if (w->tiled) {
        dr_tiff.TIFFSetField(t, TIFFTAG_TILEWIDTH, (uint32_t)TILE_SIDE);
        dr_tiff.TIFFSetField(t, TIFFTAG_TILELENGTH, (uint32_t)TILE_SIDE);
        w->band = malloc(w->row_bytes * TILE_SIDE);
        w->tile = malloc((size_t)TILE_SIDE * TILE_SIDE * (size_t)channels * (size_t)(depth / 8));
    } else {
        /* JPEG needs whole MCUs (16 rows at 4:2:0), deflate strips are made apart (in the render
         * strips of 16 rows or a multiple); the others take libtiff's ~8 KB strips. */
        w->deflate = compression == DR_TIFF_DEFLATE;
        uint32_t rows = compression == DR_TIFF_JPEG ? 16 : w->deflate ? DR_TIFF_DEFLATE_ROWS : dr_tiff.TIFFDefaultStripSize(t, 0);
        dr_tiff.TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, rows);
        w->row = malloc(w->row_bytes * (w->deflate ? DR_TIFF_DEFLATE_ROWS : 1));
        w->samples = channels;
        w->sixteen_bit = depth == 16;
        if (w->deflate) w->strip = malloc(dr_tiff_deflate_bound(w->row_bytes * DR_TIFF_DEFLATE_ROWS));
    }
    if (metadata != NULL) {
        if (metadata->xmp != NULL && metadata->xmp_length > 0) dr_tiff.TIFFSetField(t, TIFFTAG_XMLPACKET, (uint32_t)metadata->xmp_length, metadata->xmp);
        if (metadata->iptc != NULL && metadata->iptc_length > 0) dr_tiff.TIFFSetField(t, TIFFTAG_RICHTIFFIPTC, (uint32_t)metadata->iptc_length, metadata->iptc);
        if (metadata->exif != NULL && metadata->exif_length > 0 && w->io.status == DR_OK &&
            dr_tiff_exif_store(t, &w->io, metadata->exif, metadata->exif_length) != DR_OK && w->io.status == DR_OK) {
            w->io.status = DR_OUT_OF_MEMORY;
            dr_set_message(message, capacity, "out of memory writing a TIFF's EXIF");
        }
    }
    if ((w->tiled ? (w->band == NULL || w->tile == NULL) : w->row == NULL || (w->deflate && w->strip == NULL)) ||
        w->io.status != DR_OK) {
        dr_status status = w->io.status != DR_OK ? w->io.status : DR_OUT_OF_MEMORY;
        if (status == DR_OUT_OF_MEMORY) dr_set_message(message, capacity, "out of memory for TIFF rows");
        tiff_writer_close(&w->base);
        return status;
    }
    *out = &w->base;
    return DR_OK;
}
