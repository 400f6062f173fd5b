/*
 * A striped TIFF's deflate strips made apart from libtiff: every strip of DR_TIFF_DEFLATE_ROWS
 * rows takes the horizontal predictor and becomes a zlib stream of its own (TIFF strips are
 * independent by design), on the thread that rendered its rows when the rows come in whole
 * strips, else on the writing thread; tiff_write.c writes them with TIFFWriteRawStrip. A strip
 * depends only on its rows, so the file is the same whatever the threads.
 */
#include "tiff_io.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

size_t dr_tiff_deflate_bound(size_t raw_length) {
    /* libdeflate's bound, without a compressor at hand: stored blocks and the zlib wrapper. */
    return raw_length + (raw_length / 4096 + 1) * 5 + 64;
}

/* Samples minus the same sample of the pixel before (TIFF predictor 2), row by row. */
static void predict(const unsigned char *rows, size_t row_bytes, int count, int samples, int sixteen_bit,
                    unsigned char *out) {
    for (int y = 0; y < count; y++) {
        const unsigned char *row = rows + row_bytes * (size_t)y;
        unsigned char *to = out + row_bytes * (size_t)y;
        if (sixteen_bit) {
            size_t n = row_bytes / 2;
            const uint16_t *s = (const uint16_t *)(const void *)row;
            uint16_t *d = (uint16_t *)(void *)to;
            for (size_t i = 0; i < n && i < (size_t)samples; i++) d[i] = s[i];
            for (size_t i = (size_t)samples; i < n; i++) d[i] = (uint16_t)(s[i] - s[i - samples]);
        } else {
            for (size_t i = 0; i < row_bytes && i < (size_t)samples; i++) to[i] = row[i];
            for (size_t i = (size_t)samples; i < row_bytes; i++) to[i] = (unsigned char)(row[i] - row[i - samples]);
        }
    }
}

dr_status dr_tiff_deflate_strip(const unsigned char *rows, size_t row_bytes, int count, int samples,
                                int sixteen_bit, int level, unsigned char *out, size_t capacity, size_t *length,
                                char *message, size_t message_capacity) {
    size_t raw = row_bytes * (size_t)count;
    unsigned char *predicted = malloc(raw ? raw : 1);
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level < 1 ? 1 : level > 12 ? 12 : level);
    if (predicted == NULL || c == NULL) {
        free(predicted);
        if (c != NULL) libdeflate_free_compressor(c);
        dr_set_message(message, message_capacity, "out of memory while encoding TIFF");
        return DR_OUT_OF_MEMORY;
    }
    predict(rows, row_bytes, count, samples, sixteen_bit, predicted);
    *length = libdeflate_zlib_compress(c, predicted, raw, out, capacity);
    libdeflate_free_compressor(c);
    free(predicted);
    if (*length == 0) {
        dr_set_message(message, message_capacity, "TIFF: a strip did not fit its deflate bound");
        return DR_ENCODE_FAILED;
    }
    return DR_OK;
}
