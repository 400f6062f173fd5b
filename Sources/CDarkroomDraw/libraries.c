#include "libraries.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct dr_functions dr_fn;

/* One shared library: its SONAME (never the unversioned name, which only the -dev package
   installs), the Debian package that holds it (for the error message), and how its loading went. */
struct library {
    const char *soname, *package;
    pthread_once_t once;
    int failed;
    char error[400];
};

enum { CAIRO, GLIB, GOBJECT, PANGO, PANGOCAIRO, RSVG, LIBRARY_COUNT };

/* The SONAMEs are also what scripts/build-deb.sh reads from the binary to list the package's
   Depends (dpkg-shlibdeps cannot see dlopened libraries): keep them whole string literals. */
static struct library libraries[LIBRARY_COUNT] = {
    [CAIRO] = {"libcairo.so.2", "libcairo2", PTHREAD_ONCE_INIT, 0, ""},
    [GLIB] = {"libglib-2.0.so.0", "libglib2.0-0", PTHREAD_ONCE_INIT, 0, ""},
    [GOBJECT] = {"libgobject-2.0.so.0", "libglib2.0-0", PTHREAD_ONCE_INIT, 0, ""},
    [PANGO] = {"libpango-1.0.so.0", "libpango-1.0-0", PTHREAD_ONCE_INIT, 0, ""},
    [PANGOCAIRO] = {"libpangocairo-1.0.so.0", "libpangocairo-1.0-0", PTHREAD_ONCE_INIT, 0, ""},
    [RSVG] = {"librsvg-2.so.2", "librsvg2-2", PTHREAD_ONCE_INIT, 0, ""},
};

/* dlopen'ed for good (never dlclose'd: GLib's type system cannot be unloaded). RTLD_LOCAL
   keeps their symbols out of the process's global scope. */
static void *open_library(struct library *lib) {
    void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(lib->error, sizeof lib->error, "cannot load %s (install the Debian package %s): %s", lib->soname,
                 lib->package, why ? why : "not found");
        lib->failed = 1;
    }
    return handle;
}

#define DR_RESOLVE(name)                                                                          \
    if (!(dr_fn.name = (__typeof__(dr_fn.name))dlsym(handle, #name))) {                           \
        snprintf(lib->error, sizeof lib->error, "%s has no function " #name " (install a newer %s)", \
                 lib->soname, lib->package);                                                      \
        lib->failed = 1;                                                                          \
        return;                                                                                   \
    }

/* load_CAIRO, load_GLIB, …: open one library and look up every function of its list. */
#define DR_LOADER(id, FUNCTIONS)                  \
    static void load_##id(void) {                 \
        struct library *lib = &libraries[id];     \
        void *handle = open_library(lib);         \
        if (!handle) return;                      \
        FUNCTIONS(DR_RESOLVE)                     \
    }
DR_LOADER(CAIRO, DR_CAIRO_FUNCTIONS)
DR_LOADER(GLIB, DR_GLIB_FUNCTIONS)
DR_LOADER(GOBJECT, DR_GOBJECT_FUNCTIONS)
DR_LOADER(PANGO, DR_PANGO_FUNCTIONS)
DR_LOADER(PANGOCAIRO, DR_PANGOCAIRO_FUNCTIONS)
DR_LOADER(RSVG, DR_RSVG_FUNCTIONS)

static void (*const loaders[LIBRARY_COUNT])(void) = {
    [CAIRO] = load_CAIRO, [GLIB] = load_GLIB, [GOBJECT] = load_GOBJECT,
    [PANGO] = load_PANGO, [PANGOCAIRO] = load_PANGOCAIRO, [RSVG] = load_RSVG,
};

/* Loads library `id` once per process (later calls cost one pthread_once check). */
static int load(int id, char *msg, size_t msg_size) {
    pthread_once(&libraries[id].once, loaders[id]);
    if (!libraries[id].failed) return 0;
    if (msg && msg_size) snprintf(msg, msg_size, "%s", libraries[id].error);
    return -1;
}

int dr_draw_load(int needs, char *msg, size_t msg_size) {
    if (load(CAIRO, msg, msg_size)) return -1;
    if ((needs & (DR_NEEDS_PANGO | DR_NEEDS_RSVG)) && (load(GLIB, msg, msg_size) || load(GOBJECT, msg, msg_size))) return -1;
    if ((needs & DR_NEEDS_PANGO) && (load(PANGO, msg, msg_size) || load(PANGOCAIRO, msg, msg_size))) return -1;
    if ((needs & DR_NEEDS_RSVG) && load(RSVG, msg, msg_size)) return -1;
    return 0;
}
