/*
 * An EXIF block for a camera RAW whose EXIF is not a TIFF's (CR3, RAF, ORF, RW2 keep it in
 * their own containers): made with libexif from what libraw read of the file, the tags a
 * photographer looks for in an output (camera, exposure, lens settings, date, author), so a
 * JPEG made from the RAW carries them as one made by the camera would.
 */
#include "raw_exif.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>


/* A fresh entry of `components` values of `format` in `ifd`; NULL when memory runs out. */
static ExifEntry *add(ExifData *data, ExifIfd ifd, ExifTag tag, ExifFormat format, unsigned components) {
    ExifMem *mem = exif_mem_new_default();
    ExifEntry *e = mem != NULL ? exif_entry_new_mem(mem) : NULL;
    unsigned size = exif_format_get_size(format) * components;
    void *bytes = e != NULL ? exif_mem_alloc(mem, size) : NULL;
    exif_mem_unref(mem);
    if (bytes == NULL) {
        if (e != NULL) exif_entry_unref(e);
        return NULL;
    }
    e->data = bytes;
    e->size = size;
    e->tag = tag;
    e->format = format;
    e->components = components;
    exif_content_add_entry(data->ifd[ifd], e);
    exif_entry_unref(e); /* the IFD holds it */
    return e;
}

static void add_text(ExifData *data, ExifIfd ifd, ExifTag tag, const char *text) {
    size_t n = strnlen(text, 512);
    if (n == 0) return;
    ExifEntry *e = add(data, ifd, tag, EXIF_FORMAT_ASCII, (unsigned)n + 1);
    if (e != NULL) memcpy(e->data, text, n + 1);
}

static void add_rational(ExifData *data, ExifIfd ifd, ExifTag tag, double value) {
    if (!(value > 0) || value > 1e6) return;
    ExifEntry *e = add(data, ifd, tag, EXIF_FORMAT_RATIONAL, 1);
    if (e == NULL) return;
    /* Exposures below a second as 1/n, as cameras write them; the rest to a thousandth. */
    ExifRational r = value < 1 && tag == EXIF_TAG_EXPOSURE_TIME ? (ExifRational){1, (ExifLong)(1 / value + 0.5)}
                                                                : (ExifRational){(ExifLong)(value * 1000 + 0.5), 1000};
    exif_set_rational(e->data, exif_data_get_byte_order(data), r);
}

static void add_short(ExifData *data, ExifIfd ifd, ExifTag tag, unsigned value) {
    ExifEntry *e = add(data, ifd, tag, EXIF_FORMAT_SHORT, 1);
    if (e != NULL) exif_set_short(e->data, exif_data_get_byte_order(data), (ExifShort)(value > 0xFFFF ? 0xFFFF : value));
}

void dr_raw_exif_make(const libraw_data_t *lr, unsigned char **out, size_t *length) {
    *out = NULL;
    *length = 0;
    ExifData *data = exif_data_new();
    if (data == NULL) return;
    exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL);
    add_text(data, EXIF_IFD_0, EXIF_TAG_MAKE, lr->idata.make);
    add_text(data, EXIF_IFD_0, EXIF_TAG_MODEL, lr->idata.model);
    add_text(data, EXIF_IFD_0, EXIF_TAG_ARTIST, lr->other.artist);
    add_text(data, EXIF_IFD_0, EXIF_TAG_IMAGE_DESCRIPTION, lr->other.desc);
    if (lr->other.timestamp > 0) {
        struct tm when;
        char text[20];
        time_t t = lr->other.timestamp;
        if (localtime_r(&t, &when) != NULL && strftime(text, sizeof text, "%Y:%m:%d %H:%M:%S", &when) == 19) {
            add_text(data, EXIF_IFD_0, EXIF_TAG_DATE_TIME, text);
            add_text(data, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, text);
        }
    }
    add_rational(data, EXIF_IFD_EXIF, EXIF_TAG_EXPOSURE_TIME, lr->other.shutter);
    add_rational(data, EXIF_IFD_EXIF, EXIF_TAG_FNUMBER, lr->other.aperture);
    add_rational(data, EXIF_IFD_EXIF, EXIF_TAG_FOCAL_LENGTH, lr->other.focal_len);
    if (lr->other.iso_speed >= 1) add_short(data, EXIF_IFD_EXIF, EXIF_TAG_ISO_SPEED_RATINGS, (unsigned)(lr->other.iso_speed + 0.5));
    unsigned count = 0;
    for (int i = 0; i < EXIF_IFD_COUNT; i++) count += data->ifd[i]->count;
    unsigned char *saved = NULL;
    unsigned int size = 0;
    if (count > 0) exif_data_save_data(data, &saved, &size);
    exif_data_unref(data);
    /* libexif saves the block as JPEG's APP1 holds it, after "Exif\0\0": the TIFF stream follows. */
    if (saved == NULL || size <= 6) {
        free(saved);
        return;
    }
    *out = malloc(size - 6);
    if (*out != NULL) {
        memcpy(*out, saved + 6, size - 6);
        *length = size - 6;
    }
    free(saved);
}
