/*
 * The picture size an HEVC sequence parameter set declares (H.265 7.3.2.2), read before libde265
 * sees it: libde265 allocates a picture of whatever size the SPS states, so a few hundred bytes
 * of HEIF could otherwise make it take gigabytes (fuzzing found a grid whose tile declared one).
 * Only the fields up to pic_height_in_luma_samples are read.
 */
#include "internal.h"

/* The NAL unit's payload with its emulation-prevention bytes (00 00 03) removed, as far as the
 * size fields can reach: the profile_tier_level of seven sub-layers is about 100 bytes. */
enum { SPS_PREFIX_BYTES = 192 };

typedef struct {
    unsigned char bytes[SPS_PREFIX_BYTES];
    size_t length, bit;
} bit_reader;

static int read_bits(bit_reader *r, int count, uint32_t *value) {
    uint32_t v = 0;
    for (int i = 0; i < count; i++, r->bit++) {
        if (r->bit >= r->length * 8) return -1;
        v = v << 1 | ((r->bytes[r->bit / 8] >> (7 - r->bit % 8)) & 1u);
    }
    *value = v;
    return 0;
}

static int skip_bits(bit_reader *r, size_t count) {
    if (r->bit + count > r->length * 8) return -1;
    r->bit += count;
    return 0;
}

/* ue(v), Exp-Golomb; values past 32 bits are refused as no real stream has them. */
static int read_ue(bit_reader *r, uint32_t *value) {
    int zeros = 0;
    uint32_t bit;
    for (;;) {
        if (read_bits(r, 1, &bit)) return -1;
        if (bit) break;
        if (++zeros > 31) return -1;
    }
    uint32_t rest = 0;
    if (zeros > 0 && read_bits(r, zeros, &rest)) return -1;
    *value = (uint32_t)(((uint64_t)1 << zeros) - 1 + rest);
    return 0;
}

int dr_hevc_sps_size(const unsigned char *nal, size_t length, uint32_t *width, uint32_t *height) {
    bit_reader r = {.length = 0, .bit = 0};
    int zeros = 0;
    for (size_t i = 2; i < length && r.length < SPS_PREFIX_BYTES; i++) { /* after the 2-byte NAL header */
        if (zeros >= 2 && nal[i] == 3) { zeros = 0; continue; }
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        r.bytes[r.length++] = nal[i];
    }
    uint32_t sub_layers, chroma, ignored;
    /* sps_video_parameter_set_id u(4), sps_max_sub_layers_minus1 u(3), temporal_id_nesting u(1) */
    if (skip_bits(&r, 4) || read_bits(&r, 3, &sub_layers) || skip_bits(&r, 1)) return -1;
    /* profile_tier_level: the general profile (88 bits) and level (8) */
    if (skip_bits(&r, 96)) return -1;
    uint32_t profile_present[8] = {0}, level_present[8] = {0};
    for (uint32_t i = 0; i < sub_layers; i++)
        if (read_bits(&r, 1, &profile_present[i]) || read_bits(&r, 1, &level_present[i])) return -1;
    if (sub_layers > 0 && skip_bits(&r, 2 * (8 - sub_layers))) return -1;
    for (uint32_t i = 0; i < sub_layers; i++)
        if (skip_bits(&r, (profile_present[i] ? 88 : 0) + (level_present[i] ? 8 : 0))) return -1;
    /* sps_seq_parameter_set_id, chroma_format_idc (and separate_colour_plane_flag), the size */
    if (read_ue(&r, &ignored) || read_ue(&r, &chroma)) return -1;
    if (chroma == 3 && skip_bits(&r, 1)) return -1;
    if (read_ue(&r, width) || read_ue(&r, height)) return -1;
    return 0;
}
