/*
 * PDF and SVG told by their content: a PDF starts with "%PDF-"; an SVG is XML whose root
 * element is <svg>, after an optional byte-order mark, XML declaration, comments, processing
 * instructions and doctype. A gzip'd SVG (.svgz) is inflated as far as its first bytes go.
 */
#include "internal.h"

#include <string.h>
#include <zlib.h>

static int starts(const unsigned char *p, const unsigned char *end, const char *text) {
    size_t n = strlen(text);
    return (size_t)(end - p) >= n && memcmp(p, text, n) == 0;
}

/* The first byte after `close` from p on, or NULL when it is not within the bytes. */
static const unsigned char *after(const unsigned char *p, const unsigned char *end, const char *close) {
    size_t n = strlen(close);
    for (; (size_t)(end - p) >= n; p++)
        if (memcmp(p, close, n) == 0) return p + n;
    return NULL;
}

/* A doctype ends at the '>' outside its internal subset [ … ]. */
static const unsigned char *after_doctype(const unsigned char *p, const unsigned char *end) {
    int depth = 0;
    for (; p < end; p++) {
        if (*p == '[') depth++;
        else if (*p == ']' && depth > 0) depth--;
        else if (*p == '>' && depth == 0) return p + 1;
    }
    return NULL;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int plain_svg(const unsigned char *p, size_t length) {
    const unsigned char *end = p + length;
    if (starts(p, end, "\xEF\xBB\xBF")) p += 3;
    while (p != NULL && p < end) {
        if (is_space(*p)) p++;
        else if (starts(p, end, "<!--")) p = after(p + 4, end, "-->");
        else if (starts(p, end, "<?")) p = after(p + 2, end, "?>");
        else if (starts(p, end, "<!DOCTYPE") || starts(p, end, "<!doctype")) p = after_doctype(p + 9, end);
        else if (starts(p, end, "<svg"))
            return (size_t)(end - p) > 4 && (is_space(p[4]) || p[4] == '>' || p[4] == '/');
        else return 0;
    }
    return 0;
}

/* The first bytes of a gzip stream, inflated: enough to find the root element. */
static int gzipped_svg(const unsigned char *bytes, size_t length) {
    unsigned char text[4096];
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return 0;
    z.next_in = (unsigned char *)bytes;
    z.avail_in = (uInt)(length < (1u << 30) ? length : (1u << 30));
    z.next_out = text;
    z.avail_out = sizeof text;
    int status = inflate(&z, Z_SYNC_FLUSH);
    size_t made = sizeof text - z.avail_out;
    inflateEnd(&z);
    return (status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR) && plain_svg(text, made);
}

int dr_sniff_vector(const unsigned char *bytes, size_t length) {
    if (length >= 5 && memcmp(bytes, "%PDF-", 5) == 0) return DR_FORMAT_PDF;
    if (length >= 3 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 8) return gzipped_svg(bytes, length) ? DR_FORMAT_SVG : 0;
    return plain_svg(bytes, length) ? DR_FORMAT_SVG : 0;
}
