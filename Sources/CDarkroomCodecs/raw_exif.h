#ifndef DARKROOM_RAW_EXIF_H
#define DARKROOM_RAW_EXIF_H

#include <stddef.h>

#include <libraw/libraw.h>

/* An EXIF block (a TIFF stream, malloc'd into *out; NULL when there is nothing to say) made from
 * what libraw read of a camera RAW (raw_exif.c). */
void dr_raw_exif_make(const libraw_data_t *lr, unsigned char **out, size_t *length);

#endif
