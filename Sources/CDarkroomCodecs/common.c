#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void dr_set_message(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(message, capacity, format, args);
    va_end(args);
}

int dr_buffer_append(dr_buffer *buffer, const unsigned char *bytes, size_t length) {
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (grown == NULL) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

void dr_buffer_free(dr_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}

void dr_pixels_free(dr_pixels *pixels) {
    if (pixels == NULL) return;
    free(pixels->data);
    pixels->data = NULL;
}

void dr_info_store_exif(dr_info *info, const unsigned char *tiff, size_t length) {
    if (info->exif == NULL || info->exif_capacity == 0 || info->exif_length != 0) return;
    size_t n = length < info->exif_capacity ? length : info->exif_capacity;
    memcpy(info->exif, tiff, n);
    info->exif_length = n;
}

int dr_fits(const dr_info *info, uint64_t max_pixels) {
    return (uint64_t)info->width * (uint64_t)info->height <= max_pixels;
}

/* Which decoder to use, by magic bytes; 0 when neither. */
static int sniff(const unsigned char *bytes, size_t length) {
    if (length >= 8 && memcmp(bytes, png_signature, 8) == 0) return DR_FORMAT_PNG;
    if (length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return DR_FORMAT_JPEG;
    return 0;
}

static void reset_info(dr_info *info) {
    unsigned char *exif = info->exif;
    size_t capacity = info->exif_capacity;
    memset(info, 0, sizeof *info);
    info->exif = exif;
    info->exif_capacity = capacity;
}

dr_status dr_read_info(const unsigned char *bytes, size_t length, dr_info *info,
                       char *message, size_t capacity) {
    reset_info(info);
    switch (sniff(bytes, length)) {
    case DR_FORMAT_PNG: return dr_png_read_info(bytes, length, info, message, capacity);
    case DR_FORMAT_JPEG: return dr_jpeg_read_info(bytes, length, info, message, capacity);
    default:
        dr_set_message(message, capacity, "not a PNG or JPEG file (unrecognised signature)");
        return DR_NOT_AN_IMAGE;
    }
}

dr_status dr_decode(const unsigned char *bytes, size_t length, int jpeg_shrink,
                    uint64_t max_pixels, dr_info *info, dr_pixels *pixels,
                    char *message, size_t capacity) {
    reset_info(info);
    memset(pixels, 0, sizeof *pixels);
    switch (sniff(bytes, length)) {
    case DR_FORMAT_PNG:
        return dr_png_decode(bytes, length, max_pixels, info, pixels, message, capacity);
    case DR_FORMAT_JPEG:
        return dr_jpeg_decode(bytes, length, jpeg_shrink, max_pixels, info, pixels, message, capacity);
    default:
        dr_set_message(message, capacity, "not a PNG or JPEG file (unrecognised signature)");
        return DR_NOT_AN_IMAGE;
    }
}
