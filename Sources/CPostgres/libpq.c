#include "darkroom_pq.h"

#include "darkroom_shared_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libpq.so.5", "libpq5");
static dr_pq_functions functions;

static void load(void) {
    void *handle = dr_shared_library_open(&library);
    if (!handle) return;
#define DR_PQ_RESOLVE(name) DR_LIBRARY_RESOLVE(&library, handle, functions, name)
    DR_PQ_FUNCTIONS(DR_PQ_RESOLVE)
#undef DR_PQ_RESOLVE
}

const dr_pq_functions *dr_pq_load(char *msg, size_t msg_size) {
    return dr_shared_library_load(&library, load, NULL, msg, msg_size) ? NULL : &functions;
}
