/*
 * The median of each channel over a square, for float RGBA rows whatever they hold (after a
 * colour step, a resize, a 16-bit source): Huang's sliding window over the order of the values,
 * exact.
 *
 * The values a channel takes in a block (at most CHUNK columns by ROWS rows of output, with the
 * square's reach around them) are sorted once and each sample is replaced by its place in that
 * order, which no other sample shares: the window is then a set of places, a bit each (bit p of
 * the block's bitset), and its median is the value at the set bit with (side² − 1)/2 set bits
 * below it, whatever the values (ties, infinities and ±3e38 included). The window slides by
 * whole words (median_slide.h); the median's word moves from where it was by whole words (a
 * population count each) and the bit within the word is found without a loop over the bits
 * between. A channel with one value over the whole block (an opaque alpha) is written as that
 * value.
 *
 * On x86-64 the slide is compiled for the baseline and for AVX2 with the population count
 * instruction (the word XORs four at a time), and with BMI2's bit deposit for the in-word
 * select where the processor runs it fast; the first the processor supports is taken at run
 * time. Every path gives the same output.
 */
#include "include/darkroom_kernels.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

/* Output columns and rows a block: few enough places that the words the window slides by stay
 * few, enough that a sample is sorted for few outputs. DIGIT: bits a radix pass; TOP: bits of the
 * key the radix passes sort at most (the rest are put in order by insertion). PAD: places read
 * past a column's last by the vector compare. Places fit 16 bits. */
enum { CHUNK = 32, ROWS = 32, DIGIT = 10, TOP = 20, PAD = 16 };

/* Float bits mapped to unsigned integers of the same order (negative values reversed). */
static inline uint32_t order_key(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

static inline float key_value(uint32_t k) {
    uint32_t b = (k & 0x80000000u) ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Samples and bitset words of a block: its columns (output's and the reach's) and rows. */
static inline void block_shape(int radius, int width, int height, size_t *columns, size_t *n, size_t *words) {
    width = width < CHUNK ? width : CHUNK;
    height = height < ROWS ? height : ROWS;
    *columns = (size_t)width + 2 * (size_t)radius;
    *n = *columns * ((size_t)height + 2 * (size_t)radius);
    *words = (*n + 63) / 64;
}

size_t dr_median_float_scratch(int radius, int width, int height) {
    size_t columns, n, words;
    block_shape(radius, width, height, &columns, &n, &words);
    /* items and their copy, radix counts, then per channel: the column bitsets and the window's,
     * the values in order, the places. */
    return 2 * n * sizeof(uint64_t) + 4 * ((size_t)1 << DIGIT) * sizeof(uint32_t)
        + 4 * ((columns + 1) * words * sizeof(uint64_t) + n * sizeof(float) + (n + PAD) * sizeof(uint16_t));
}

/* Items key << 32 | index sorted by (key − lo) >> shift, `bits` bits, least significant digit
 * first (every digit's counts taken in one pass); returns the buffer holding the result (a or b). */
static uint64_t *radix_sort(uint64_t *a, uint64_t *b, size_t n, uint32_t lo, int shift, int bits, uint32_t *counts) {
    const int passes = (bits + DIGIT - 1) / DIGIT, width = (bits + passes - 1) / passes;
    const uint32_t buckets = 1u << width, mask = buckets - 1;
    memset(counts, 0, (size_t)passes * buckets * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        const uint32_t key = ((uint32_t)(a[i] >> 32) - lo) >> shift;
        for (int pass = 0; pass < passes; pass++) counts[pass * buckets + ((key >> (pass * width)) & mask)]++;
    }
    for (int pass = 0; pass < passes; pass++) {
        uint32_t *count = counts + pass * buckets, sum = 0;
        const int s = shift + pass * width;
        for (uint32_t d = 0; d < buckets; d++) { const uint32_t c = count[d]; count[d] = sum; sum += c; }
        for (size_t i = 0; i < n; i++) b[count[(((uint32_t)(a[i] >> 32) - lo) >> s) & mask]++] = a[i];
        uint64_t *t = a; a = b; b = t;
    }
    return a;
}

/* The items in increasing order (by key, ties by index, as a stable sort leaves them): the
 * radix passes sort the key's top TOP bits, then an insertion sort puts in order the items
 * whose keys differ only below those (values a few units in the last place apart, rare); where
 * it would move many, every bit is sorted instead. Returns the buffer holding the result. */
static uint64_t *sort_items(uint64_t *a, uint64_t *b, size_t n, uint32_t lo, uint32_t span, uint32_t *counts) {
    const int bits = 32 - __builtin_clz(span);
    if (bits <= TOP) return radix_sort(a, b, n, lo, 0, bits, counts);
    uint64_t *sorted = radix_sort(a, b, n, lo, bits - TOP, TOP, counts), *other = sorted == a ? b : a;
    size_t budget = 2 * n;
    for (size_t i = 1; i < n; i++) {
        const uint64_t v = sorted[i];
        if (sorted[i - 1] <= v) continue;
        size_t j = i;
        do {
            sorted[j] = sorted[j - 1];
            j--;
        } while (j > 0 && sorted[j - 1] > v);
        sorted[j] = v;
        if (i - j > budget) return radix_sort(sorted, other, n, lo, 0, bits, counts);
        budget -= i - j;
    }
    return sorted;
}

/* The place of set bit j (from 0, lowest first) of x, which has more than j: the byte holding
 * it from the bytes' running counts (no loop over bits), then the few set bits below it there. */
static inline int select64(uint64_t x, int j) {
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555u);
    s = (s & 0x3333333333333333u) + ((s >> 2) & 0x3333333333333333u);
    s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    const uint64_t running = s * ones; /* byte i: set bits in bytes 0 … i (at most 64) */
    const int byte = __builtin_ctzll(((running | highs) - (uint64_t)(j + 1) * ones) & highs) >> 3;
    unsigned rest = (unsigned)(x >> (8 * byte)) & 0xffu;
    for (int below = j - (int)(((running << 8) >> (8 * byte)) & 0xffu); below > 0; below--) rest &= rest - 1;
    return 8 * byte + __builtin_ctz(rest);
}

/* How many more of the `side` places at `come` than at `gone` lie below `first` (both may be
 * read PAD places past side). */
static inline int moved(const uint16_t *come, const uint16_t *gone, int side, unsigned first) {
#if defined(__x86_64__)
    /* Unsigned 16-bit compares as signed ones with the top bit flipped; 16 places a mask. */
    const __m128i flip = _mm_set1_epi16((short)0x8000), limit = _mm_set1_epi16((short)(first ^ 0x8000));
    int count = 0;
    for (int i = 0; i < side; i += 16) {
        const unsigned keep = side - i >= 16 ? 0xffffu : (1u << (side - i)) - 1;
#define BELOW(p, j) _mm_cmplt_epi16(_mm_xor_si128(_mm_loadu_si128((const __m128i *)((p) + i + (j))), flip), limit)
        const unsigned c = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(BELOW(come, 0), BELOW(come, 8))) & keep;
        const unsigned g = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(BELOW(gone, 0), BELOW(gone, 8))) & keep;
#undef BELOW
        count += __builtin_popcount(c) - __builtin_popcount(g);
    }
    return count;
#else
    int count = 0;
    for (int i = 0; i < side; i++) count += (come[i] < first) - (gone[i] < first);
    return count;
#endif
}

#if defined(__x86_64__)
/* moved() with 256-bit compares: 16 places a compare. */
__attribute__((always_inline, target("avx2"))) static inline int moved_avx2(const uint16_t *come, const uint16_t *gone, int side,
                                                                            unsigned first) {
    const __m256i flip = _mm256_set1_epi16((short)0x8000), limit = _mm256_set1_epi16((short)(first ^ 0x8000));
    int count = 0;
    for (int i = 0; i < side; i += 16) {
        const uint32_t keep = side - i >= 16 ? 0xffffffffu : (uint32_t)(((uint64_t)1 << (2 * (side - i))) - 1);
#define BELOW(p) _mm256_cmpgt_epi16(limit, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)((p) + i)), flip))
        const uint32_t c = (uint32_t)_mm256_movemask_epi8(BELOW(come)) & keep, g = (uint32_t)_mm256_movemask_epi8(BELOW(gone)) & keep;
#undef BELOW
        count += __builtin_popcount(c) - __builtin_popcount(g);
    }
    return count / 2; /* two mask bits a place */
}
#endif

/* One channel's sliding window: its places (column by column) and values in order, the column
 * bitsets and the window's, where the median's word was (m, with `below` set bits in the words
 * before it; m0 at the row's start). */
typedef struct {
    const uint16_t *place;
    const float *value;
    uint64_t *col, *win;
    float *out;
    int m, below, m0;
} lane;

#define SLIDE slide_portable
#define SELECT select64
#define MOVED moved
#define TARGET
#include "median_slide.h"

#if defined(__x86_64__)
__attribute__((always_inline, target("bmi2"))) static inline int select_pdep(uint64_t x, int j) {
    return __builtin_ctzll(_pdep_u64((uint64_t)1 << j, x));
}

#define SLIDE slide_avx2
#define SELECT select64
#define MOVED moved_avx2
#define TARGET __attribute__((target("avx2,popcnt")))
#include "median_slide.h"

#define SLIDE slide_avx2_bmi2
#define SELECT select_pdep
#define MOVED moved_avx2
#define TARGET __attribute__((target("avx2,popcnt,bmi2")))
#include "median_slide.h"

/* AMD before Zen 3 (family 0x19) runs pdep in microcode, slower than select64. */
static int fast_pdep(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    const int amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* "AuthenticAMD" */
    if (!amd) return 1;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned family = ((a >> 8) & 0xf) == 0xf ? 0xf + ((a >> 20) & 0xff) : (a >> 8) & 0xf;
    return family >= 0x19;
}
#endif

int dr_median_float_paths(void) {
#if defined(__x86_64__)
    if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))) return 1;
    return __builtin_cpu_supports("bmi2") && fast_pdep() ? 3 : 2;
#else
    return 1;
#endif
}

static void median_block(const float *const *rows, size_t x0, int radius, int width, int height, float *out, ptrdiff_t outStride,
                         void *scratch, int path) {
    if (width <= 0 || height <= 0) return;
    const int iw = width + 2 * radius, ih = height + 2 * radius;
    const size_t n = (size_t)iw * ih, words = (n + 63) / 64;
    uint64_t *items = scratch, *spare = items + n;
    uint32_t *counts = (uint32_t *)(spare + n);
    uint64_t *bitsets = (uint64_t *)(counts + 4 * ((size_t)1 << DIGIT));
    float *values = (float *)(bitsets + 4 * ((size_t)iw + 1) * words);
    uint16_t *places = (uint16_t *)(values + 4 * n);
    lane lanes[4];
    int channels = 0;
    for (int c = 0; c < 4; c++) {
        /* Order keys (NaN counts as 0), their range over the block; column by column. */
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int y = 0; y < ih; y++) {
            const float *row = rows[y] + 4 * x0 + c;
            for (int x = 0; x < iw; x++) {
                const float v = row[4 * (size_t)x];
                const uint32_t key = order_key(v == v ? v : 0);
                lo = key < lo ? key : lo;
                hi = key > hi ? key : hi;
                items[(size_t)x * ih + y] = (uint64_t)key << 32 | ((size_t)x * ih + y);
            }
        }
        if (lo == hi) {
            const float v = key_value(lo);
            for (int y = 0; y < height; y++)
                for (int x = 0; x < width; x++) out[(size_t)y * outStride + 4 * (size_t)x + c] = v;
            continue;
        }
        const uint64_t *sorted = sort_items(items, spare, n, lo, hi - lo, counts);
        float *value = values + (size_t)channels * n;
        uint16_t *place = places + (size_t)channels * (n + PAD);
        for (size_t i = 0; i < n; i++) {
            place[(uint32_t)sorted[i]] = (uint16_t)i;
            value[i] = key_value((uint32_t)(sorted[i] >> 32));
        }
        memset(place + n, 0, PAD * sizeof *place);
        uint64_t *col = bitsets + (size_t)channels * ((size_t)iw + 1) * words;
        lanes[channels++] = (lane){.place = place, .value = value, .col = col, .win = col + (size_t)iw * words, .out = out + c};
    }
    if (!channels) return;
#if defined(__x86_64__)
    if (path >= 3) slide_avx2_bmi2(lanes, channels, radius, iw, ih, (int)words, width, height, outStride);
    else if (path == 2) slide_avx2(lanes, channels, radius, iw, ih, (int)words, width, height, outStride);
    else
#endif
        slide_portable(lanes, channels, radius, iw, ih, (int)words, width, height, outStride);
}

void dr_median_float_path(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                          void *scratch, int path) {
    for (int y0 = 0; y0 < height; y0 += ROWS)
        for (int x0 = 0; x0 < width; x0 += CHUNK)
            median_block(rows + y0, (size_t)x0, radius, width - x0 < CHUNK ? width - x0 : CHUNK,
                         height - y0 < ROWS ? height - y0 : ROWS, out + (size_t)y0 * outStride + 4 * (size_t)x0, outStride,
                         scratch, path);
}

void dr_median_float(const float *const *rows, int radius, int width, int height, float *out, ptrdiff_t outStride,
                     void *scratch) {
    static int paths; /* 0 until asked: the answer is the same from every thread */
    int p = __atomic_load_n(&paths, __ATOMIC_RELAXED);
    if (!p) __atomic_store_n(&paths, p = dr_median_float_paths(), __ATOMIC_RELAXED);
    dr_median_float_path(rows, radius, width, height, out, outStride, scratch, p);
}
