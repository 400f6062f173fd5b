#include "darkroom_shared_library.h"

#include <stdio.h>

void *dr_shared_library_open(dr_shared_library *lib) {
    void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(lib->error, sizeof lib->error, "cannot load %s (install the Debian package %s): %s", lib->soname,
                 lib->package, why ? why : "not found");
        lib->failed = 1;
    }
    return handle;
}

void dr_shared_library_missing(dr_shared_library *lib, const char *function) {
    snprintf(lib->error, sizeof lib->error, "%s has no function %s (install a newer %s)", lib->soname, function,
             lib->package);
    lib->failed = 1;
}

int dr_shared_library_load(dr_shared_library *lib, void (*loader)(void), const char *prefix, char *message,
                           size_t capacity) {
    pthread_once(&lib->once, loader);
    if (!lib->failed) return 0;
    if (message && capacity) snprintf(message, capacity, "%s%s", prefix ? prefix : "", lib->error);
    return -1;
}
