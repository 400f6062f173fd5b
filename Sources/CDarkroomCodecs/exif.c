/*
 * EXIF editing with libexif (what libvips uses): the block a reader found is loaded, brought up
 * to date for the output and saved again, so no TIFF structure is patched by hand.
 *
 * libexif forgives much: entries it cannot read are skipped and logged as corrupt data. A block
 * with such entries keeps what was readable (and the caller reports a warning); a block with no
 * readable entry at all is refused, and the output goes without EXIF.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libexif/exif-data.h>
#include <libexif/exif-log.h>
#include <libexif/exif-utils.h>

/* What went wrong while libexif loaded the block: the first corrupt-data message. */
typedef struct {
    char first[160];
    int corrupt;
} load_log;

/* libexif logs some skipped entries as corrupt data, others only as debug messages ("Tag starts
 * past end of buffer", "Tag size overflow detected", "Deep recursion detected"): those are
 * picked out by their words. */
static int is_problem(ExifLogCode code, const char *text) {
    if (code == EXIF_LOG_CODE_CORRUPT_DATA || code == EXIF_LOG_CODE_NO_MEMORY) return 1;
    static const char *const words[] = {"past end", "overflow", "recursion", "Bogus", "nvalid", "orrupt"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(text, words[i]) != NULL) return 1;
    return 0;
}

static void on_log(ExifLog *log, ExifLogCode code, const char *domain, const char *format, va_list args, void *user) {
    (void)log;
    (void)domain;
    load_log *l = user;
    char text[160];
    vsnprintf(text, sizeof text, format, args);
    if (!is_problem(code, text)) return;
    if (l->corrupt++ == 0) memcpy(l->first, text, sizeof l->first);
}

static unsigned entries(const ExifData *data) {
    unsigned n = 0;
    for (int i = 0; i < EXIF_IFD_COUNT; i++) n += data->ifd[i]->count;
    return n;
}

static void clear(ExifContent *content) {
    while (content->count > 0) exif_content_remove_entry(content, content->entries[content->count - 1]);
}

/* Keeps only the entries of `content` whose tags are listed. */
static void keep_only(ExifContent *content, const ExifTag *tags, int n) {
    for (unsigned i = content->count; i-- > 0;) {
        int kept = 0;
        for (int t = 0; t < n; t++) kept |= content->entries[i]->tag == tags[t];
        if (!kept) exif_content_remove_entry(content, content->entries[i]);
    }
}

/* Sets a SHORT or LONG entry, replacing it by a LONG when the value does not fit its format. */
static void set_dimension(ExifData *data, ExifMem *mem, ExifContent *ifd, ExifTag tag, unsigned value) {
    ExifByteOrder order = exif_data_get_byte_order(data);
    ExifEntry *e = exif_content_get_entry(ifd, tag);
    if (e != NULL && e->components == 1 && e->format == EXIF_FORMAT_LONG && e->size >= 4) {
        exif_set_long(e->data, order, value);
        return;
    }
    if (e != NULL && e->components == 1 && e->format == EXIF_FORMAT_SHORT && e->size >= 2 && value <= 0xFFFF) {
        exif_set_short(e->data, order, (ExifShort)value);
        return;
    }
    if (e != NULL) exif_content_remove_entry(ifd, e);
    ExifEntry *fresh = exif_entry_new_mem(mem);
    if (fresh == NULL) return;
    fresh->data = exif_mem_alloc(mem, 4);
    if (fresh->data != NULL) {
        fresh->tag = tag;
        fresh->format = EXIF_FORMAT_LONG;
        fresh->components = 1;
        fresh->size = 4;
        exif_set_long(fresh->data, order, value);
        exif_content_add_entry(ifd, fresh);
    }
    exif_entry_unref(fresh);
}

dr_status dr_exif_rewrite(const unsigned char *tiff, size_t length, const dr_exif_edit *edit,
                          dr_buffer *out, char *message, size_t capacity) {
    memset(out, 0, sizeof *out);
    if (length < 8 || length > 0x7fffffff) {
        dr_set_message(message, capacity, "EXIF block of %zu bytes is not a TIFF stream", length);
        return DR_CORRUPT;
    }
    /* libexif wants the block as JPEG's APP1 holds it: "Exif\0\0" in front. */
    unsigned char *block = malloc(length + 6);
    ExifMem *mem = exif_mem_new_default();
    ExifData *data = mem != NULL ? exif_data_new_mem(mem) : NULL;
    ExifLog *log = mem != NULL ? exif_log_new_mem(mem) : NULL;
    if (block == NULL || data == NULL || log == NULL) {
        free(block);
        if (data != NULL) exif_data_unref(data);
        if (log != NULL) exif_log_unref(log);
        if (mem != NULL) exif_mem_unref(mem);
        return DR_OUT_OF_MEMORY;
    }
    memcpy(block, "Exif\0\0", 6);
    memcpy(block + 6, tiff, length);
    load_log problems = {{0}, 0};
    exif_log_set_func(log, on_log, &problems);
    exif_data_log(data, log);
    /* Keep what the camera wrote: no tags added "to follow the specification", unknown tags
     * kept, the maker note written back byte for byte. */
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_set_option(data, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE);
    exif_data_load_data(data, block, (unsigned)(length + 6));
    free(block);

    dr_status status = DR_OK;
    if (entries(data) == 0) {
        dr_set_message(message, capacity, "EXIF block is unreadable%s%s", problems.corrupt ? ": " : "",
                       problems.corrupt ? problems.first : " (no entries)");
        status = DR_CORRUPT;
    } else {
        if (problems.corrupt)
            dr_set_message(message, capacity, "EXIF block partly unreadable (%d problem%s, first: %s); "
                           "the readable entries are kept", problems.corrupt, problems.corrupt == 1 ? "" : "s",
                           problems.first);
        /* The thumbnail shows the picture before the chain ran: never carried. */
        if (data->data != NULL) exif_mem_free(mem, data->data);
        data->data = NULL;
        data->size = 0;
        clear(data->ifd[EXIF_IFD_1]);
        if (edit->copyright_only) {
            static const ExifTag owner[] = {EXIF_TAG_ARTIST, EXIF_TAG_COPYRIGHT};
            keep_only(data->ifd[EXIF_IFD_0], owner, 2);
            clear(data->ifd[EXIF_IFD_EXIF]);
            clear(data->ifd[EXIF_IFD_GPS]);
            clear(data->ifd[EXIF_IFD_INTEROPERABILITY]);
        } else {
            if (edit->remove_gps) clear(data->ifd[EXIF_IFD_GPS]);
            ExifEntry *orientation = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
            if (edit->orientation_upright && orientation != NULL && orientation->format == EXIF_FORMAT_SHORT &&
                orientation->size >= 2)
                exif_set_short(orientation->data, exif_data_get_byte_order(data), 1);
            ExifEntry *space = exif_content_get_entry(data->ifd[EXIF_IFD_EXIF], EXIF_TAG_COLOR_SPACE);
            if (edit->srgb && space != NULL && space->format == EXIF_FORMAT_SHORT && space->size >= 2)
                exif_set_short(space->data, exif_data_get_byte_order(data), 1);
            set_dimension(data, mem, data->ifd[EXIF_IFD_EXIF], EXIF_TAG_PIXEL_X_DIMENSION, (unsigned)edit->width);
            set_dimension(data, mem, data->ifd[EXIF_IFD_EXIF], EXIF_TAG_PIXEL_Y_DIMENSION, (unsigned)edit->height);
        }
        unsigned char *saved = NULL;
        unsigned int saved_length = 0;
        /* Nothing left (copyright_only on a block without owner): no block, and no problem. */
        if (entries(data) > 0) exif_data_save_data(data, &saved, &saved_length);
        if (entries(data) == 0) {
            /* out stays empty */
        } else if (saved == NULL || saved_length <= 6 || memcmp(saved, "Exif\0\0", 6) != 0) {
            dr_set_message(message, capacity, "EXIF block could not be written again");
            status = DR_CORRUPT;
        } else if (!dr_buffer_append(out, saved + 6, saved_length - 6)) {
            status = DR_OUT_OF_MEMORY;
        }
        if (saved != NULL) exif_mem_free(mem, saved);
    }
    exif_data_unref(data);
    exif_log_unref(log);
    exif_mem_unref(mem);
    return status;
}

int dr_exif_text(const unsigned char *tiff, size_t length, int tag, char *out, size_t capacity) {
    if (capacity == 0) return 0;
    out[0] = 0;
    if (tiff == NULL || length < 8 || length > 0x7fffffff) return 0;
    unsigned char *block = malloc(length + 6);
    ExifMem *mem = exif_mem_new_default();
    ExifData *data = mem != NULL ? exif_data_new_mem(mem) : NULL;
    ExifLog *log = mem != NULL ? exif_log_new_mem(mem) : NULL;
    int found = 0;
    if (block != NULL && data != NULL && log != NULL) {
        /* A log of our own, so libexif prints nothing; what it could not read is simply absent. */
        load_log problems = {{0}, 0};
        exif_log_set_func(log, on_log, &problems);
        exif_data_log(data, log);
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        memcpy(block, "Exif\0\0", 6);
        memcpy(block + 6, tiff, length);
        exif_data_load_data(data, block, (unsigned)(length + 6));
        ExifEntry *entry = exif_data_get_entry(data, (ExifTag)tag);
        if (entry != NULL && entry->format == EXIF_FORMAT_ASCII && entry->data != NULL && entry->size > 0) {
            /* The value as stored (ASCII, NUL-terminated or not), not libexif's display text. */
            size_t n = entry->size < capacity - 1 ? entry->size : capacity - 1;
            memcpy(out, entry->data, n);
            out[n] = 0;
            found = out[0] != 0;
        }
    }
    free(block);
    if (log) exif_log_unref(log);
    if (data) exif_data_unref(data);
    if (mem) exif_mem_unref(mem);
    return found;
}
