/*
 * EXIF, XMP and IPTC in JPEG: APP1 "Exif\0\0" (a TIFF stream), APP1 with Adobe's XMP namespace
 * (the packet; "extended XMP" split over several markers is not read), and APP13 "Photoshop
 * 3.0\0", a list of Photoshop image resources of which resource 0x0404 holds the IPTC-NAA
 * records. Reading picks the blocks out of the markers libjpeg saved; writing puts them back
 * right after SOI/JFIF (jpeg_write_marker must follow jpeg_start_compress).
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

static const char exif_prefix[] = "Exif\0\0";                          /* 6 bytes */
static const char xmp_prefix[] = "http://ns.adobe.com/xap/1.0/";       /* + NUL: 29 bytes */
static const char photoshop_prefix[] = "Photoshop 3.0";                /* + NUL: 14 bytes */
#define EXIF_PREFIX_LENGTH 6
#define XMP_PREFIX_LENGTH 29
#define PHOTOSHOP_PREFIX_LENGTH 14
/* A marker segment holds at most 65533 bytes of data (its length field counts itself). */
#define MAX_MARKER_DATA 65533

static int has_prefix(jpeg_saved_marker_ptr m, const char *prefix, size_t n) {
    return m->data_length >= n && memcmp(m->data, prefix, n) == 0;
}

void dr_jpeg_collect_metadata(jpeg_saved_marker_ptr markers, dr_metadata *out) {
    for (jpeg_saved_marker_ptr m = markers; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && has_prefix(m, exif_prefix, EXIF_PREFIX_LENGTH))
            dr_metadata_keep(&out->exif, &out->exif_length, m->data + EXIF_PREFIX_LENGTH,
                             m->data_length - EXIF_PREFIX_LENGTH);
        else if (m->marker == JPEG_APP0 + 1 && has_prefix(m, xmp_prefix, XMP_PREFIX_LENGTH))
            dr_metadata_keep(&out->xmp, &out->xmp_length, m->data + XMP_PREFIX_LENGTH,
                             m->data_length - XMP_PREFIX_LENGTH);
        else if (m->marker == JPEG_APP0 + 13 && has_prefix(m, photoshop_prefix, PHOTOSHOP_PREFIX_LENGTH))
            dr_find_iptc_resource(m->data + PHOTOSHOP_PREFIX_LENGTH, m->data_length - PHOTOSHOP_PREFIX_LENGTH, out);
    }
}

static void put_bytes(j_compress_ptr cinfo, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < length; i++) jpeg_write_m_byte(cinfo, p[i]);
}

static void put_be(j_compress_ptr cinfo, unsigned value, int n) {
    for (int i = n - 1; i >= 0; i--) jpeg_write_m_byte(cinfo, (int)((value >> (8 * i)) & 0xFF));
}

/* One marker: prefix then block. A block too large for one segment is left out (the Swift side
 * checks the sizes first and reports it). */
static void put_marker(j_compress_ptr cinfo, int marker, const char *prefix, size_t prefix_length,
                       const unsigned char *block, size_t length) {
    if (block == NULL || length == 0 || length > MAX_MARKER_DATA - prefix_length) return;
    jpeg_write_m_header(cinfo, marker, (unsigned)(prefix_length + length));
    put_bytes(cinfo, prefix, prefix_length);
    put_bytes(cinfo, block, length);
}

void dr_jpeg_write_metadata(j_compress_ptr cinfo, const dr_metadata *metadata) {
    put_marker(cinfo, JPEG_APP0 + 1, exif_prefix, EXIF_PREFIX_LENGTH, metadata->exif, metadata->exif_length);
    put_marker(cinfo, JPEG_APP0 + 1, xmp_prefix, XMP_PREFIX_LENGTH, metadata->xmp, metadata->xmp_length);
    size_t iptc = metadata->iptc_length;
    size_t resource = 4 + 2 + 2 + 4 + iptc + (iptc & 1); /* 8BIM, id, empty name, size, data */
    if (metadata->iptc == NULL || iptc == 0 || PHOTOSHOP_PREFIX_LENGTH + resource > MAX_MARKER_DATA) return;
    jpeg_write_m_header(cinfo, JPEG_APP0 + 13, (unsigned)(PHOTOSHOP_PREFIX_LENGTH + resource));
    put_bytes(cinfo, photoshop_prefix, PHOTOSHOP_PREFIX_LENGTH);
    put_bytes(cinfo, "8BIM", 4);
    put_be(cinfo, DR_IPTC_RESOURCE, 2);
    put_be(cinfo, 0, 2);
    put_be(cinfo, (unsigned)iptc, 4);
    put_bytes(cinfo, metadata->iptc, iptc);
    if (iptc & 1) jpeg_write_m_byte(cinfo, 0);
}
