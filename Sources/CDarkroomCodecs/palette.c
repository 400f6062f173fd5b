/*
 * Palette building for PNG output: whether an image's 8-bit colours fit in 256 entries, and the
 * index of every pixel. An open-addressing table of 1024 slots keeps the lookups short.
 */
#include "internal.h"

#include <stdint.h>
#include <string.h>

#define SLOTS 1024

typedef struct {
    uint32_t keys[SLOTS];
    int16_t values[SLOTS]; /* -1: empty */
} table;

static uint32_t pack(const unsigned char *p, int channels) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (channels == 4 ? p[3] : 255u);
}

/* The slot holding `key`, or the empty slot where it belongs. */
static size_t slot(const table *t, uint32_t key) {
    size_t i = (key * 2654435761u) >> 22; /* 10 bits: Fibonacci hashing */
    while (t->values[i] >= 0 && t->keys[i] != key) i = (i + 1) & (SLOTS - 1);
    return i;
}

int dr_palette_index(const unsigned char *pixels, size_t count, int channels, dr_palette *palette,
                     unsigned char *indices) {
    table t;
    memset(t.values, 0xFF, sizeof t.values);
    uint32_t colors[256];
    int n = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t key = pack(pixels + (size_t)channels * i, channels);
        size_t s = slot(&t, key);
        if (t.values[s] >= 0) continue;
        if (n == 256) return 0;
        t.keys[s] = key;
        t.values[s] = (int16_t)n;
        colors[n++] = key;
    }
    /* Translucent colours first (tRNS lists alphas from entry 0), in first-seen order. */
    int order[256], k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < n; c++)
            if (((colors[c] & 0xFF) < 255) == (pass == 0)) order[k++] = c;
    palette->count = n;
    palette->translucent = 0;
    for (int e = 0; e < n; e++) {
        uint32_t key = colors[order[e]];
        palette->entries[e][0] = (unsigned char)(key >> 24);
        palette->entries[e][1] = (unsigned char)(key >> 16);
        palette->entries[e][2] = (unsigned char)(key >> 8);
        palette->entries[e][3] = (unsigned char)key;
        if ((key & 0xFF) < 255) palette->translucent = e + 1;
        t.values[slot(&t, key)] = (int16_t)e;
    }
    for (size_t i = 0; i < count; i++)
        indices[i] = (unsigned char)t.values[slot(&t, pack(pixels + (size_t)channels * i, channels))];
    return 1;
}
