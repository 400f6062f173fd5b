#include "darkroom_pq.h"

#include "darkroom_shared_library.h"

static dr_shared_library library = DR_SHARED_LIBRARY("libpq.so.5", "libpq5");
static dr_pq_functions functions;

DR_SHARED_LIBRARY_LOADER(load, library, functions, DR_PQ_FUNCTIONS)

const dr_pq_functions *dr_pq_load(char *msg, size_t msg_size) {
    return dr_shared_library_load(&library, load, NULL, msg, msg_size) ? NULL : &functions;
}
