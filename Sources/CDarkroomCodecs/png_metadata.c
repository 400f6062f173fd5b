/*
 * EXIF, XMP and IPTC in PNG. EXIF is the eXIf chunk (a TIFF stream); XMP the iTXt chunk keyed
 * "XML:com.adobe.xmp"; IPTC has no standard chunk, so it goes where ImageMagick (and exiftool,
 * which reads it) put it: a zTXt "Raw profile type iptc", hex text after a "\niptc\n<length>\n"
 * header. ImageMagick's "Raw profile type exif"/"APP1"/"xmp" chunks are read too. libpng's
 * png_read_info stops at the image data; an eXIf or uncompressed XMP after it (ImageMagick 6
 * writes eXIf there) is found by a plain chunk walk. Outputs carry them before the image data.
 */
#include "internal.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char xmp_key[] = "XML:com.adobe.xmp";
static const char raw_profile[] = "Raw profile type ";

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* ImageMagick's raw profile text: "\n<name>\n<spaces><decimal length>\n<hex, wrapped>". Returns a
 * malloc'd block of *length bytes, or NULL when the text is not of that form. */
static unsigned char *decode_raw_profile(const char *text, size_t text_length, size_t *length) {
    const char *p = text, *end = text + text_length;
    while (p < end && *p == '\n') p++;
    while (p < end && *p != '\n') p++;  /* the profile's name */
    while (p < end && (*p == '\n' || *p == ' ')) p++;
    size_t n = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9' && digits < 10) { n = n * 10 + (size_t)(*p++ - '0'); digits++; }
    if (digits == 0 || n == 0 || n > (size_t)(end - p) / 2) return NULL;
    unsigned char *out = malloc(n);
    if (out == NULL) return NULL;
    size_t got = 0;
    int high = -1;
    for (; p < end && got < n; p++) {
        int v = hex_value(*p);
        if (v < 0) continue;
        if (high < 0) { high = v; continue; }
        out[got++] = (unsigned char)(high << 4 | v);
        high = -1;
    }
    if (got != n) { free(out); return NULL; }
    *length = n;
    return out;
}

static void collect_raw_profile(const char *kind, const unsigned char *data, size_t length, dr_metadata *out) {
    if (strcmp(kind, "exif") == 0 || strcmp(kind, "APP1") == 0) {
        /* ImageMagick keeps JPEG's "Exif\0\0" in front of the TIFF stream. */
        if (length > 6 && memcmp(data, "Exif\0\0", 6) == 0) { data += 6; length -= 6; }
        dr_metadata_keep(&out->exif, &out->exif_length, data, length);
    } else if (strcmp(kind, "iptc") == 0) {
        if (length >= 4 && memcmp(data, "8BIM", 4) == 0) dr_find_iptc_resource(data, length, out);
        else dr_metadata_keep(&out->iptc, &out->iptc_length, data, length);
    } else if (strcmp(kind, "xmp") == 0) {
        dr_metadata_keep(&out->xmp, &out->xmp_length, data, length);
    }
}

void dr_png_collect_metadata(png_structp png, png_infop info, dr_metadata *out) {
    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_length, &exif) != 0 && exif != NULL) {
        /* Some writers keep JPEG's "Exif\0\0" in front of the TIFF stream. */
        if (exif_length > 6 && memcmp(exif, "Exif\0\0", 6) == 0) { exif += 6; exif_length -= 6; }
        dr_metadata_keep(&out->exif, &out->exif_length, exif, exif_length);
    }
    png_textp texts = NULL;
    int count = png_get_text(png, info, &texts, NULL);
    for (int i = 0; i < count; i++) {
        png_textp t = &texts[i];
        if (t->key == NULL || t->text == NULL) continue;
        size_t length = t->compression >= PNG_ITXT_COMPRESSION_NONE ? t->itxt_length : t->text_length;
        if (strcmp(t->key, xmp_key) == 0) {
            dr_metadata_keep(&out->xmp, &out->xmp_length, (const unsigned char *)t->text, length);
        } else if (strncmp(t->key, raw_profile, sizeof raw_profile - 1) == 0) {
            size_t decoded_length = 0;
            unsigned char *decoded = decode_raw_profile(t->text, length, &decoded_length);
            if (decoded == NULL) continue;
            collect_raw_profile(t->key + sizeof raw_profile - 1, decoded, decoded_length, out);
            free(decoded);
        }
    }
}

/* ImageMagick's layout: a header, then 36 bytes (72 hex digits) a line. */
static char *encode_raw_profile(const char *kind, const unsigned char *data, size_t length) {
    size_t capacity = 32 + strlen(kind) + 2 * length + length / 36 + 2;
    char *text = malloc(capacity);
    if (text == NULL) return NULL;
    static const char digits[] = "0123456789abcdef";
    char *p = text + snprintf(text, capacity, "\n%s\n%8zu\n", kind, length);
    for (size_t i = 0; i < length; i++) {
        *p++ = digits[data[i] >> 4];
        *p++ = digits[data[i] & 15];
        if (i % 36 == 35) *p++ = '\n';
    }
    *p++ = '\n';
    *p = 0;
    return text;
}

void dr_png_set_metadata(png_structp png, png_infop info, const dr_metadata *m) {
    if (m->exif != NULL && m->exif_length > 0 && m->exif_length <= 0x7fffffff)
        png_set_eXIf_1(png, info, (png_uint_32)m->exif_length, m->exif);
    png_text texts[2];
    int count = 0;
    /* png_set_text copies the texts, measuring them with strlen: both need a terminating NUL. */
    char *xmp = NULL, *iptc = NULL;
    if (m->xmp != NULL && m->xmp_length > 0 && (xmp = malloc(m->xmp_length + 1)) != NULL) {
        memcpy(xmp, m->xmp, m->xmp_length);
        xmp[m->xmp_length] = 0;
        memset(&texts[count], 0, sizeof texts[count]);
        texts[count].compression = PNG_ITXT_COMPRESSION_NONE;
        texts[count].key = (png_charp)xmp_key;
        texts[count].text = xmp;
        texts[count].lang = (png_charp)"";
        texts[count].lang_key = (png_charp)"";
        count++;
    }
    if (m->iptc != NULL && m->iptc_length > 0 && (iptc = encode_raw_profile("iptc", m->iptc, m->iptc_length)) != NULL) {
        memset(&texts[count], 0, sizeof texts[count]);
        texts[count].compression = PNG_TEXT_COMPRESSION_zTXt;
        texts[count].key = (png_charp)"Raw profile type iptc";
        texts[count].text = iptc;
        count++;
    }
    if (count > 0) png_set_text(png, info, texts, count); /* copies them */
    free(xmp);
    free(iptc);
}

static size_t read_u32(const unsigned char *p) {
    return (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | (size_t)p[3];
}

/* ImageMagick 6 writes eXIf after the image data, where png_read_info does not look: the chunks
 * after the first IDAT are walked here (uncompressed ones only: eXIf, and an uncompressed XMP
 * iTXt). CRCs are not checked; a block that is not EXIF is found out when it is edited. */
void dr_png_collect_trailing_metadata(const unsigned char *bytes, size_t length, dr_metadata *out) {
    size_t at = 8;
    int after_data = 0;
    while (at + 12 <= length) {
        size_t n = read_u32(bytes + at);
        const unsigned char *type = bytes + at + 4, *data = bytes + at + 8;
        if (n > length - at - 12) return;
        if (memcmp(type, "IDAT", 4) == 0) after_data = 1;
        else if (memcmp(type, "IEND", 4) == 0) return;
        else if (after_data && memcmp(type, "eXIf", 4) == 0) {
            if (n > 6 && memcmp(data, "Exif\0\0", 6) == 0) { data += 6; n -= 6; }
            dr_metadata_keep(&out->exif, &out->exif_length, data, n);
        } else if (after_data && memcmp(type, "iTXt", 4) == 0 && n > sizeof xmp_key + 2 &&
                   memcmp(data, xmp_key, sizeof xmp_key) == 0 && data[sizeof xmp_key] == 0) {
            /* keyword NUL, compression flag 0, method, language NUL, translated keyword NUL, text */
            const unsigned char *p = data + sizeof xmp_key + 2, *end = data + n;
            for (int nul = 0; nul < 2 && p < end; p++) if (*p == 0) nul++;
            dr_metadata_keep(&out->xmp, &out->xmp_length, p, (size_t)(end - p));
        }
        at += 12 + n;
    }
}
