/*
 * A shared library opened with dlopen on first use, for the libraries only some jobs need
 * (cairo, Pango and librsvg for drawing, libpq for cluster mode, libavif for 10-bit AVIF, libjxl for
 * JPEG XL):
 * linking them would map them and their dependencies into every darkroom process.
 *
 * Each user keeps a table of `__typeof__` function pointers, an X-macro listing its functions and
 * a loader DR_SHARED_LIBRARY_LOADER defines, run under the library's pthread_once by
 * dr_shared_library_load; its SONAME must be a whole string literal in the user's source
 * (scripts/build-deb.sh reads the SONAMEs from the binary for Depends).
 */
#ifndef DARKROOM_SHARED_LIBRARY_H
#define DARKROOM_SHARED_LIBRARY_H

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef struct {
    /* The SONAME (never the unversioned name, which only the -dev package installs) and the
       Debian package that holds it, for the error message. */
    const char *soname, *package;
    pthread_once_t once;
    /* Set by a failed open or lookup, with the reason in `error`. */
    int failed;
    char error[400];
} dr_shared_library;

#define DR_SHARED_LIBRARY(soname, package) {soname, package, PTHREAD_ONCE_INIT, 0, ""}

/* Declares `type`, a struct of one pointer per function the X-macro FUNCTIONS lists, each field
   named and typed after the library's own declaration. */
#define DR_SHARED_LIBRARY_TABLE(type, FUNCTIONS) typedef struct { FUNCTIONS(DR_LIBRARY_FIELD) } type
#define DR_LIBRARY_FIELD(name) __typeof__(&name) name;

/* Opens `lib` for good (never dlclose'd: GLib's type system cannot be unloaded; RTLD_LOCAL keeps
   its symbols out of the global scope). NULL, with `failed` and `error` set, if it cannot be. */
void *dr_shared_library_open(dr_shared_library *lib);

/* Records that `lib` lacks `function` (an older version than darkroom was built for). */
void dr_shared_library_missing(dr_shared_library *lib, const char *function);

/* Inside a loader returning void: looks `name` up into `table.name`, or records it missing and returns. */
#define DR_LIBRARY_RESOLVE(lib, handle, table, name)                                            \
    if (!((table).name = (__typeof__((table).name))dlsym(handle, #name))) {                     \
        dr_shared_library_missing(lib, #name);                                                  \
        return;                                                                                 \
    }

/* Defines `static void loader(void)`, which opens `lib` (a dr_shared_library variable) and looks up
   every function the X-macro FUNCTIONS lists into the same-named fields of `table`. */
#define DR_SHARED_LIBRARY_LOADER(loader, lib, table, FUNCTIONS)                                 \
    static void loader(void) {                                                                  \
        dr_shared_library *const dr_loading = &(lib);                                           \
        __typeof__(table) *const dr_into = &(table);                                            \
        void *handle = dr_shared_library_open(dr_loading);                                      \
        if (!handle) return;                                                                    \
        FUNCTIONS(DR_LIBRARY_RESOLVE_LOADING)                                                   \
    }
#define DR_LIBRARY_RESOLVE_LOADING(name) DR_LIBRARY_RESOLVE(dr_loading, handle, *dr_into, name)

/* Runs the loader once; 0 when the library is usable, else -1 with its reason in `message`
   (prefixed by `prefix` when not NULL). */
int dr_shared_library_load(dr_shared_library *lib, void (*loader)(void), const char *prefix, char *message,
                           size_t capacity);

#endif
