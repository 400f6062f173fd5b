#include "darkroom_pq.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The SONAME (never the unversioned libpq.so, which only libpq-dev installs), whole, as
   scripts/build-deb.sh reads it from the binary to list the package's Depends. */
static const char soname[] = "libpq.so.5";
static const char package[] = "libpq5";

static dr_pq_functions functions;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int failed;
static char error[400];

#define DR_PQ_RESOLVE(name)                                                                       \
    if (!(functions.name = (__typeof__(functions.name))dlsym(handle, #name))) {                   \
        snprintf(error, sizeof error, "%s has no function " #name " (install a newer %s)", soname, package); \
        failed = 1;                                                                               \
        return;                                                                                   \
    }

/* Opened for good (never dlclose'd); RTLD_LOCAL keeps its symbols out of the global scope. */
static void load(void) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "cannot load %s (install the Debian package %s): %s", soname, package,
                 why ? why : "not found");
        failed = 1;
        return;
    }
    DR_PQ_FUNCTIONS(DR_PQ_RESOLVE)
}

const dr_pq_functions *dr_pq_load(char *msg, size_t msg_size) {
    pthread_once(&once, load);
    if (!failed) return &functions;
    if (msg_size) snprintf(msg, msg_size, "%s", error);
    return NULL;
}
