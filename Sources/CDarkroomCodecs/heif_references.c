/*
 * How deep a HEIF's derived images nest, read from its 'iref' box before libheif decodes: libheif
 * 1.15 decodes a grid's or overlay's inputs by recursion and follows a reference back to the
 * image itself without end (fuzzing found a grid listed among its own tiles: decoding one tile,
 * then itself again, until the stack ran out). Real files nest two or three deep (an 'iden' or
 * 'iovl' over a grid over its tiles; an alpha image beside them), so past MAX_DEPTH, or in a
 * cycle, the file is refused as corrupt. The edges are 'dimg' (a derived image to its inputs) and
 * 'auxl' (an auxiliary image such as alpha, which libheif decodes with its master).
 */
#include "heif_boxes.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 8 };

typedef struct {
    uint32_t from, to;
} edge;

typedef struct {
    edge *edges;
    size_t count, capacity;
} edge_list;

static int add_edge(edge_list *list, uint32_t from, uint32_t to) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        edge *grown = realloc(list->edges, capacity * sizeof *grown);
        if (grown == NULL) return -1;
        list->edges = grown;
        list->capacity = capacity;
    }
    list->edges[list->count++] = (edge){from, to};
    return 0;
}

static int by_source(const void *a, const void *b) {
    uint32_t x = ((const edge *)a)->from, y = ((const edge *)b)->from;
    return x < y ? -1 : x > y;
}

/* The first edge leaving `item` in the sorted list, or `count` when none does. */
static size_t first_edge(const edge_list *list, uint32_t item) {
    size_t low = 0, high = list->count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (list->edges[mid].from < item) low = mid + 1;
        else high = mid;
    }
    return low < list->count && list->edges[low].from == item ? low : list->count;
}

/* The longest path below `item`, or MAX_DEPTH + 1 past the limit or in a cycle. `state` per
 * first edge: 0 unvisited, 1 on the path being followed, 2 + height once known. */
static int height(const edge_list *list, unsigned *state, uint32_t item, int depth) {
    size_t first = first_edge(list, item);
    if (first == list->count) return 0;
    if (state[first] == 1 || depth > MAX_DEPTH) return MAX_DEPTH + 1;
    if (state[first] >= 2) return (int)state[first] - 2;
    state[first] = 1;
    int tallest = 0;
    for (size_t i = first; i < list->count && list->edges[i].from == item; i++) {
        int h = 1 + height(list, state, list->edges[i].to, depth + 1);
        if (h > MAX_DEPTH) return MAX_DEPTH + 1;
        if (h > tallest) tallest = h;
    }
    state[first] = 2 + (unsigned)tallest;
    return tallest;
}

dr_status dr_heif_check_references(const unsigned char *bytes, size_t length, char *message, size_t capacity) {
    size_t meta, meta_end, iref, iref_end;
    if (!dr_box_find(bytes, 0, length, "meta", &meta, &meta_end) || meta_end - meta < 4) return DR_OK;
    if (!dr_box_find(bytes, meta + 4, meta_end, "iref", &iref, &iref_end) || iref_end - iref < 4) return DR_OK;
    int id_bytes = bytes[iref] == 0 ? 2 : 4;
    edge_list list = {0};
    dr_status status = DR_OK;
    /* Read as libheif reads it: each reference's header, then its items, one after another to the
     * end of 'iref', whatever size the header states (a fuzzed one stated 1.3 GB). */
    size_t at = iref + 4;
    while (status == DR_OK && iref_end - at >= 8) {
        uint32_t size = dr_be(bytes + at, 4);
        int derived = memcmp(bytes + at + 4, "dimg", 4) == 0, auxiliary = memcmp(bytes + at + 4, "auxl", 4) == 0;
        at += (size == 1 ? 16 : 8) + (memcmp(bytes + at + 4, "uuid", 4) == 0 ? 16 : 0);
        if (iref_end < at || iref_end - at < (size_t)id_bytes + 2) break;
        uint32_t from = dr_be(bytes + at, id_bytes);
        size_t count = dr_be(bytes + at + id_bytes, 2);
        at += (size_t)id_bytes + 2;
        for (size_t i = 0; i < count && iref_end - at >= (size_t)id_bytes && status == DR_OK; i++, at += (size_t)id_bytes) {
            uint32_t to = dr_be(bytes + at, id_bytes);
            /* an auxiliary image is decoded as part of its master: the edge runs master → auxiliary */
            if ((derived || auxiliary) && add_edge(&list, derived ? from : to, derived ? to : from)) status = DR_OUT_OF_MEMORY;
        }
    }
    unsigned *state = status == DR_OK && list.count ? calloc(list.count, sizeof *state) : NULL;
    if (status == DR_OK && list.count && state == NULL) status = DR_OUT_OF_MEMORY;
    if (status == DR_OK && list.count) qsort(list.edges, list.count, sizeof *list.edges, by_source);
    for (size_t i = 0; status == DR_OK && i < list.count; i++) {
        if (height(&list, state, list.edges[i].from, 0) > MAX_DEPTH) {
            dr_set_message(message, capacity, "HEIF: item %u is built from itself, or from images nested more than %d deep",
                           list.edges[i].from, MAX_DEPTH);
            status = DR_CORRUPT;
        }
    }
    if (status == DR_OUT_OF_MEMORY) dr_set_message(message, capacity, "out of memory reading a HEIF's references");
    free(state);
    free(list.edges);
    return status;
}
