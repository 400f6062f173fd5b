/*
 * The window of each channel of a block slid along each of its rows (median_histogram.c), one
 * copy an instruction set: the file is included with SLIDE (the function's name), SELECT(x, j)
 * (the place of set bit j of x), MOVED(come, gone, side, first) (how many more of the places at
 * come than at gone lie below first) and TARGET (its attributes) defined.
 *
 * Per channel, a bitset per column of the block holds the places of the column's `side` samples
 * in the window's rows (kept by two bit flips a row); the window's bitset is the XOR of the
 * columns it covers, updated along the row by whole words (the column that leaves and the one
 * that comes), and the set bits below the median's word by comparing the two columns' places
 * with that word's first place. The channels step together so their chains overlap.
 */
TARGET static void SLIDE(lane *lanes, int channels, int radius, int iw, int ih, int words, int width, int height,
                         ptrdiff_t outStride) {
    const int side = 2 * radius + 1, k = side * side / 2;
    for (int c = 0; c < channels; c++) {
        lane *l = lanes + c;
        memset(l->col, 0, (size_t)iw * words * sizeof *l->col);
        for (int x = 0; x < iw; x++) {
            uint64_t *b = l->col + (size_t)x * words;
            for (int dy = 0; dy < side; dy++) {
                const unsigned p = l->place[(size_t)x * ih + dy];
                b[p >> 6] |= (uint64_t)1 << (p & 63);
            }
        }
        l->m0 = 0;
    }
    for (int y = 0; y < height; y++) {
        for (int c = 0; c < channels; c++) {
            lane *l = lanes + c;
            uint64_t *win = l->win;
            if (y > 0)
                for (int x = 0; x < iw; x++) {
                    uint64_t *b = l->col + (size_t)x * words;
                    const unsigned gone = l->place[(size_t)x * ih + y - 1], come = l->place[(size_t)x * ih + y - 1 + side];
                    b[gone >> 6] ^= (uint64_t)1 << (gone & 63);
                    b[come >> 6] ^= (uint64_t)1 << (come & 63);
                }
            memcpy(win, l->col, (size_t)words * sizeof *win);
            for (int x = 1; x < side; x++) {
                const uint64_t *b = l->col + (size_t)x * words;
                for (int j = 0; j < words; j++) win[j] |= b[j];
            }
            l->m = l->m0;
            l->below = 0;
            for (int j = 0; j < l->m; j++) l->below += __builtin_popcountll(win[j]);
        }
        for (int x = 0;; x++) {
            for (int c = 0; c < channels; c++) {
                lane *l = lanes + c;
                const uint64_t *win = l->win;
                int m = l->m, below = l->below;
                while (below > k) below -= __builtin_popcountll(win[--m]);
                for (int count; below + (count = __builtin_popcountll(win[m])) <= k; m++) below += count;
                if (x == 0) l->m0 = m;
                l->m = m;
                l->below = below;
                l->out[(size_t)y * outStride + 4 * (size_t)x] = l->value[64 * m + SELECT(win[m], k - below)];
            }
            if (x + 1 == width) break;
            for (int c = 0; c < channels; c++) {
                lane *l = lanes + c;
                uint64_t *win = l->win;
                const uint64_t *gone = l->col + (size_t)x * words, *come = l->col + (size_t)(x + side) * words;
                for (int j = 0; j < words; j++) win[j] ^= gone[j] ^ come[j];
                const unsigned first = 64u * (unsigned)l->m;
                l->below += MOVED(l->place + (size_t)(x + side) * ih + y, l->place + (size_t)x * ih + y, side, first);
            }
        }
    }
}

#undef SLIDE
#undef SELECT
#undef MOVED
#undef TARGET
