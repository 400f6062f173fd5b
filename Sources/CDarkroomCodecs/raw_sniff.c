/*
 * Telling a camera RAW file by its first DR_SNIFF_LENGTH bytes.
 *
 * Half of the RAW formats have a signature of their own: Olympus ORF ("IIRO", "IIRS", "MMOR"),
 * Panasonic RW2 ("IIU\0"), Fujifilm RAF ("FUJIFILMCCD-RAW"), Canon CR3 (an ISO BMFF 'ftyp' of
 * brand "crx "), and Canon CR2, a TIFF with "CR" at offset 8. The others (DNG, Nikon NEF, Sony
 * ARW, Pentax PEF, Samsung SRW) are plain TIFFs, told apart by their first directory (IFD0),
 * which every one of them writes at the start of the file: a DNG says so (the DNGVersion tag),
 * the rest name a camera maker (Make) and store what no ordinary TIFF does: colour filter
 * array or linear raw samples (PhotometricInterpretation), a maker's raw compression, or a
 * reduced-resolution IFD0 (a preview, the picture itself being in a sub-IFD).
 *
 * A structural test on the head rather than libraw's own identification: dr_sniff must answer
 * the same from the 4 KB head the daemon reads as from the whole file (the head decides whether
 * a TIFF is read in place), and libraw needs the whole file. A TIFF darkroom writes, or a
 * camera's TIFF (an RGB picture in IFD0), stays a TIFF even when it names its camera's maker.
 * What the test lets through, libraw decides: a file it cannot develop is refused with
 * `unsupported`.
 */
#include "internal.h"

#include <string.h>
#include <strings.h>

static uint32_t get(const unsigned char *p, int size, int big) {
    uint32_t v = 0;
    for (int i = 0; i < size; i++) v |= (uint32_t)p[big ? size - 1 - i : i] << (8 * i);
    return v;
}

/* Makers whose cameras write TIFF-based RAW files (as libraw names them in Make). */
static int camera_maker(const char *make) {
    static const char *const makers[] = {"NIKON", "SONY", "PENTAX", "RICOH", "SAMSUNG", "Canon", "Hasselblad", "Leica",
                                         "KODAK", "EASTMAN", "Phase One", "Leaf", "Mamiya", "EPSON", "Minolta", "KONICA",
                                         "OLYMPUS", "Panasonic", "FUJIFILM", "SIGMA", "Sinar", "Apple", "GoPro", "DJI"};
    for (size_t i = 0; i < sizeof makers / sizeof makers[0]; i++)
        if (strncasecmp(make, makers[i], strlen(makers[i])) == 0) return 1;
    return 0;
}

/* Compression values only RAW files use: Nikon NEF (34713), Sony ARW (32767), Epson and
 * Samsung (32769...32772), Pentax PEF (65535), Panasonic (34316), Kodak (32867, 65000). */
static int raw_compression(uint32_t c) {
    return c == 34713 || c == 32767 || c == 32769 || c == 32770 || c == 32772 || c == 65535 || c == 34316 || c == 32867 ||
           c == 65000;
}

/* The TIFF-based RAWs, from IFD0 within the head: 2 for a DNG, 1 for the others. */
static int sniff_tiff_raw(const unsigned char *b, size_t n) {
    int big = b[0] == 'M';
    if (get(b + 2, 2, big) != 42) return 0; /* BigTIFF: no camera writes one */
    if (n >= 10 && b[8] == 'C' && b[9] == 'R') return 1; /* CR2 */
    uint32_t ifd = get(b + 4, 4, big);
    if (ifd < 8 || ifd > n - 2) return 0;
    uint32_t count = get(b + ifd, 2, big);
    char make[33] = "";
    int cfa = 0, reduced = 0, compressed = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t at = ifd + 2 + 12 * (size_t)i;
        if (at + 12 > n) break;
        uint32_t tag = get(b + at, 2, big), type = get(b + at + 2, 2, big), values = get(b + at + 4, 4, big);
        uint32_t value = type == 3 ? get(b + at + 8, 2, big) : get(b + at + 8, 4, big);
        switch (tag) {
        case 0xC612: return 2; /* DNGVersion */
        case 0x00FE: reduced = type == 4 && (value & 1); break;
        case 0x0103: compressed = raw_compression(value); break;
        case 0x0106: cfa = value == 32803 || value == 34892; break;
        case 0x010F:
            if (type == 2 && values > 0) {
                size_t length = values < sizeof make ? values : sizeof make - 1;
                const unsigned char *text = values <= 4 ? b + at + 8 : (value < n && length <= n - value ? b + value : NULL);
                if (text != NULL) {
                    memcpy(make, text, length);
                    make[length] = 0;
                }
            }
            break;
        default: break;
        }
    }
    return camera_maker(make) && (cfa || compressed || reduced);
}

int dr_raw_is_dng(const unsigned char *bytes, size_t length) {
    size_t n = length < DR_SNIFF_LENGTH ? length : DR_SNIFF_LENGTH;
    return n >= 16 && (memcmp(bytes, "II*\0", 4) == 0 || memcmp(bytes, "MM\0*", 4) == 0) && sniff_tiff_raw(bytes, n) == 2;
}

int dr_sniff_raw(const unsigned char *bytes, size_t length) {
    size_t n = length < DR_SNIFF_LENGTH ? length : DR_SNIFF_LENGTH;
    if (n >= 16 && memcmp(bytes, "FUJIFILMCCD-RAW", 15) == 0) return DR_FORMAT_RAW;
    if (n >= 12 && memcmp(bytes + 4, "ftypcrx ", 8) == 0) return DR_FORMAT_RAW;
    if (n >= 4 && (memcmp(bytes, "IIRO", 4) == 0 || memcmp(bytes, "IIRS", 4) == 0 || memcmp(bytes, "MMOR", 4) == 0 ||
                   memcmp(bytes, "IIU\0", 4) == 0))
        return DR_FORMAT_RAW;
    if (n >= 16 && (memcmp(bytes, "II*\0", 4) == 0 || memcmp(bytes, "MM\0*", 4) == 0) && sniff_tiff_raw(bytes, n))
        return DR_FORMAT_RAW;
    return 0;
}
