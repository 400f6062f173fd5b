/*
 * A PNG's image data (IDAT) as deflate segments joined as pigz joins them: a strip's filtered
 * rows are deflated alone, on the thread that rendered them (no dictionary from the strip
 * before), ending on a byte boundary with a sync flush (the last strip with the final block),
 * so segments made on any threads concatenate into one zlib stream; their Adler-32s are
 * combined. A segment depends only on its rows, so a file is the same whatever the threads.
 * Strips too small to be worth a segment of their own are filtered and deflated here, on the
 * writing thread, in one continuing stream.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Deflate's strategy for an effort (dr_png_filter_options): filtered rows are small numbers
 * with short matches (Z_FILTERED, as libpng does: 7 % smaller than the default on a smooth
 * grey picture, as small on photos); at effort 1 only runs are matched (Z_RLE: on photos as
 * small, in a third of the time; flat graphics lose their repeats); unfiltered rows are left
 * to the default. */
static int strategy(int effort) { return effort <= 0 ? Z_DEFAULT_STRATEGY : effort == 1 ? Z_RLE : Z_FILTERED; }

static int clamp_level(int level) { return level < 0 ? 0 : level > 9 ? 9 : level; }

size_t dr_png_segment_bound(size_t raw_length, int level) {
    z_stream z;
    memset(&z, 0, sizeof z);
    size_t bound = raw_length + raw_length / 1000 + 64;
    if (deflateInit2(&z, clamp_level(level), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK) {
        bound = deflateBound(&z, (uLong)raw_length);
        deflateEnd(&z);
    }
    return bound + 16; /* the sync flush's empty stored block, and a partial byte before it */
}

/* Deflates `n` bytes into a raw stream of `z`, ending with `flush`, into out[*length...capacity). */
static int deflate_all(z_stream *z, const unsigned char *bytes, size_t n, int flush,
                       unsigned char *out, size_t capacity, size_t *length) {
    z->next_in = (Bytef *)bytes;
    z->avail_in = (uInt)n;
    z->next_out = out + *length;
    z->avail_out = (uInt)(capacity - *length);
    int result = deflate(z, flush);
    *length = capacity - z->avail_out;
    if (flush == Z_FINISH) return result == Z_STREAM_END;
    return result == Z_OK && z->avail_in == 0 && z->avail_out > 0;
}

dr_status dr_png_segment_make(const unsigned char *rows, size_t stride, size_t row_bytes, int count,
                              const dr_png_filter_options *options, int level, int last,
                              unsigned char *out, size_t capacity, dr_png_segment *segment,
                              char *message, size_t message_capacity) {
    memset(segment, 0, sizeof *segment);
    size_t raw = (size_t)count * (row_bytes + 1);
    unsigned char *filtered = malloc(raw ? raw : 1);
    if (filtered == NULL || !dr_png_filter_rows(rows, stride, row_bytes, count, NULL, options, filtered)) {
        free(filtered);
        dr_set_message(message, message_capacity, "out of memory while encoding PNG");
        return DR_OUT_OF_MEMORY;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, clamp_level(level), Z_DEFLATED, -15, 8, strategy(options->effort)) != Z_OK) {
        free(filtered);
        dr_set_message(message, message_capacity, "out of memory while encoding PNG");
        return DR_OUT_OF_MEMORY;
    }
    size_t length = 0;
    int ok = deflate_all(&z, filtered, raw, last ? Z_FINISH : Z_SYNC_FLUSH, out, capacity, &length);
    deflateEnd(&z);
    segment->adler = (uint32_t)adler32(adler32(0L, Z_NULL, 0), filtered, (uInt)raw);
    free(filtered);
    if (!ok) {
        dr_set_message(message, message_capacity, "PNG: deflate failed on a strip");
        return DR_ENCODE_FAILED;
    }
    segment->length = length;
    segment->raw_length = raw;
    segment->rows = count;
    segment->final = last != 0;
    return DR_OK;
}

/* ---- the writer's side: chunks in order ---- */

static void put_be32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One IDAT chunk holding head, body and tail, in that order (any may be empty). */
static dr_status put_idat(dr_sink *sink, const unsigned char *head, size_t nh, const unsigned char *body,
                          size_t nb, const unsigned char *tail, size_t nt, char *message, size_t capacity) {
    size_t n = nh + nb + nt;
    if (n == 0) return DR_OK;
    if (n > 0x7fffffffu) {
        dr_set_message(message, capacity, "PNG: an image data chunk over 2 GB");
        return DR_ENCODE_FAILED;
    }
    unsigned char header[8];
    put_be32(header, (uint32_t)n);
    memcpy(header + 4, "IDAT", 4);
    uLong crc = crc32(0L, header + 4, 4);
    if (nh) crc = crc32(crc, head, (uInt)nh);
    if (nb) crc = crc32_z(crc, body, nb);
    if (nt) crc = crc32(crc, tail, (uInt)nt);
    unsigned char crc_bytes[4];
    put_be32(crc_bytes, (uint32_t)crc);
    dr_status status = dr_sink_put(sink, header, 8, message, capacity);
    if (status == DR_OK && nh) status = dr_sink_put(sink, head, nh, message, capacity);
    if (status == DR_OK && nb) status = dr_sink_put(sink, body, nb, message, capacity);
    if (status == DR_OK && nt) status = dr_sink_put(sink, tail, nt, message, capacity);
    if (status == DR_OK) status = dr_sink_put(sink, crc_bytes, 4, message, capacity);
    return status;
}

/* The zlib header (32 KB window, the level's hint) before the first segment; empty after. */
static size_t zlib_header(dr_png_idat *idat, unsigned char header[2]) {
    if (idat->started) return 0;
    idat->started = 1;
    int hint = idat->level < 2 ? 0 : idat->level < 6 ? 1 : idat->level == 6 ? 2 : 3;
    unsigned cmf = 0x78, flg = (unsigned)hint << 6;
    flg += 31 - (cmf * 256 + flg) % 31;
    header[0] = (unsigned char)cmf;
    header[1] = (unsigned char)flg;
    return 2;
}

dr_status dr_png_idat_init(dr_png_idat *idat, size_t row_bytes, const dr_png_filter_options *filter, int level) {
    memset(idat, 0, sizeof *idat);
    idat->adler = 1; /* Adler-32 of nothing */
    idat->level = clamp_level(level);
    idat->filter = *filter;
    idat->row_bytes = row_bytes;
    idat->out = malloc(DR_PNG_IDAT_BUFFER);
    idat->above = malloc(row_bytes ? row_bytes : 1);
    return idat->out != NULL && idat->above != NULL ? DR_OK : DR_OUT_OF_MEMORY;
}

void dr_png_idat_free(dr_png_idat *idat) {
    if (idat->open) deflateEnd((z_stream *)idat->z);
    free(idat->z);
    free(idat->out);
    free(idat->above);
    free(idat->filtered);
    memset(idat, 0, sizeof *idat);
}

/* Runs the continuing stream with `flush` over n bytes, a chunk whenever the buffer fills;
 * with Z_FINISH the Adler-32 goes into the last chunk. */
static dr_status run_stream(dr_png_idat *idat, dr_sink *sink, const unsigned char *bytes, size_t n, int flush,
                            char *message, size_t capacity) {
    z_stream *z = idat->z;
    z->next_in = (Bytef *)bytes;
    z->avail_in = (uInt)n;
    for (;;) {
        z->next_out = idat->out + idat->pending;
        z->avail_out = (uInt)(DR_PNG_IDAT_BUFFER - idat->pending);
        int result = deflate(z, flush);
        if (result != Z_OK && result != Z_STREAM_END && result != Z_BUF_ERROR) {
            dr_set_message(message, capacity, "PNG: deflate failed");
            return DR_ENCODE_FAILED;
        }
        idat->pending = DR_PNG_IDAT_BUFFER - z->avail_out;
        int done = flush == Z_FINISH ? result == Z_STREAM_END : z->avail_in == 0 && z->avail_out > 0;
        if (done && flush == Z_NO_FLUSH) return DR_OK;
        if (done || z->avail_out == 0) {
            unsigned char head[2], tail[4];
            size_t nh = zlib_header(idat, head), nt = 0;
            if (done && flush == Z_FINISH) {
                put_be32(tail, idat->adler);
                nt = 4;
                idat->ended = 1;
            }
            dr_status status = put_idat(sink, head, nh, idat->out, idat->pending, tail, nt, message, capacity);
            idat->pending = 0;
            if (status != DR_OK || done) return status;
        }
    }
}

/* Ends the continuing stream's part with a sync flush before a segment: the segment's matches
 * cannot reach back into it, nor the stream's (reset) into the segment. */
static dr_status close_stream(dr_png_idat *idat, dr_sink *sink, char *message, size_t capacity) {
    if (!idat->open || !idat->used) return DR_OK;
    dr_status status = run_stream(idat, sink, NULL, 0, Z_SYNC_FLUSH, message, capacity);
    deflateReset((z_stream *)idat->z);
    idat->used = 0;
    idat->has_above = 0;
    return status;
}

dr_status dr_png_idat_rows(dr_png_idat *idat, dr_sink *sink, const unsigned char *rows, size_t stride, int count,
                           int last, char *message, size_t capacity) {
    if (idat->ended) {
        dr_set_message(message, capacity, "PNG: image data after the last strip");
        return DR_ENCODE_FAILED;
    }
    if (!idat->open) {
        idat->z = calloc(1, sizeof(z_stream));
        if (idat->z == NULL ||
            deflateInit2((z_stream *)idat->z, idat->level, Z_DEFLATED, -15, 8, strategy(idat->filter.effort)) != Z_OK) {
            dr_set_message(message, capacity, "out of memory while encoding PNG");
            return DR_OUT_OF_MEMORY;
        }
        idat->open = 1;
    }
    size_t raw = (size_t)count * (idat->row_bytes + 1);
    if (raw > idat->filtered_capacity) {
        free(idat->filtered);
        idat->filtered = malloc(raw);
        idat->filtered_capacity = idat->filtered ? raw : 0;
    }
    if (idat->filtered == NULL ||
        !dr_png_filter_rows(rows, stride, idat->row_bytes, count, idat->has_above ? idat->above : NULL,
                            &idat->filter, idat->filtered)) {
        dr_set_message(message, capacity, "out of memory while encoding PNG");
        return DR_OUT_OF_MEMORY;
    }
    if (count > 0) {
        memcpy(idat->above, rows + stride * (size_t)(count - 1), idat->row_bytes);
        idat->has_above = 1;
    }
    idat->adler = (uint32_t)adler32_z(idat->adler, idat->filtered, raw);
    idat->used = 1;
    return run_stream(idat, sink, idat->filtered, raw, last ? Z_FINISH : Z_NO_FLUSH, message, capacity);
}

dr_status dr_png_idat_put(dr_png_idat *idat, dr_sink *sink, const dr_png_segment *segment,
                          const unsigned char *bytes, char *message, size_t capacity) {
    if (idat->ended) {
        dr_set_message(message, capacity, "PNG: image data after the last strip");
        return DR_ENCODE_FAILED;
    }
    dr_status status = close_stream(idat, sink, message, capacity);
    if (status != DR_OK) return status;
    idat->has_above = 0;
    unsigned char head[2], tail[4];
    size_t nh = zlib_header(idat, head), nt = 0;
    idat->adler = (uint32_t)adler32_combine(idat->adler, segment->adler, (z_off_t)segment->raw_length);
    if (segment->final) {
        put_be32(tail, idat->adler);
        nt = 4;
        idat->ended = 1;
    }
    return put_idat(sink, head, nh, bytes, segment->length, tail, nt, message, capacity);
}

dr_status dr_png_idat_end(dr_png_idat *idat, dr_sink *sink, char *message, size_t capacity) {
    if (!idat->ended && idat->open && idat->used) {
        dr_status status = run_stream(idat, sink, NULL, 0, Z_FINISH, message, capacity);
        if (status != DR_OK) return status;
    }
    if (!idat->ended) {
        /* The last strip came as a segment not marked final: an empty final block ends the
         * stream. */
        static const unsigned char empty_final[2] = {0x03, 0x00};
        unsigned char head[2], tail[4];
        size_t nh = zlib_header(idat, head);
        put_be32(tail, idat->adler);
        idat->ended = 1;
        dr_status status = put_idat(sink, head, nh, empty_final, 2, tail, 4, message, capacity);
        if (status != DR_OK) return status;
    }
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    return dr_sink_put(sink, iend, sizeof iend, message, capacity);
}
