/* libavif opened with dlopen on first use; see avif_library.h. */
#include "avif_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The SONAME, whole, as scripts/build-deb.sh reads it from the binary to list the Depends. */
static const char soname[] = "libavif.so.15";
static const char package[] = "libavif15";

static dr_avif_functions functions;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int failed;
static char error[400];

#define DR_AVIF_RESOLVE(name)                                                                     \
    if (!(functions.name = (__typeof__(functions.name))dlsym(handle, #name))) {                   \
        snprintf(error, sizeof error, "%s has no function " #name " (install %s 0.11 or newer)", soname, package); \
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
    DR_AVIF_FUNCTIONS(DR_AVIF_RESOLVE)
}

const dr_avif_functions *dr_avif_load(char *message, size_t capacity) {
    pthread_once(&once, load);
    if (!failed) return &functions;
    if (capacity) snprintf(message, capacity, "10-bit AVIF needs libavif: %s", error);
    return NULL;
}
