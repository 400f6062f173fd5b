#ifndef DARKROOM_CODECS_INTERNAL_H
#define DARKROOM_CODECS_INTERNAL_H

#include "include/darkroom_codecs.h"

/* Writes a printf-style message into the caller's buffer (always NUL-terminated). */
void dr_set_message(char *message, size_t capacity, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends bytes to a growable buffer; returns 0 when memory runs out. */
int dr_buffer_append(dr_buffer *buffer, const unsigned char *bytes, size_t length);

/* Copies up to the info's EXIF capacity from a TIFF stream. */
void dr_info_store_exif(dr_info *info, const unsigned char *tiff, size_t length);

/* Whether a decode of width × height fits the pixel budget. */
int dr_fits(const dr_info *info, uint64_t max_pixels);

dr_status dr_png_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                           char *message, size_t capacity);
dr_status dr_png_decode(const unsigned char *bytes, size_t length, uint64_t max_pixels,
                        dr_info *info, dr_pixels *pixels, char *message, size_t capacity);
dr_status dr_jpeg_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                            char *message, size_t capacity);
dr_status dr_jpeg_decode(const unsigned char *bytes, size_t length, int shrink,
                         uint64_t max_pixels, dr_info *info, dr_pixels *pixels,
                         char *message, size_t capacity);

#endif
