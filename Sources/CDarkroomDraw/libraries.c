#include "libraries.h"

#include "darkroom_shared_library.h"

#include <stdlib.h>

struct dr_functions dr_fn;

/* The SONAMEs are also what scripts/build-deb.sh reads from the binary to list the package's
   Depends (dpkg-shlibdeps cannot see dlopened libraries): keep them whole string literals. */
enum { CAIRO, GLIB, GOBJECT, PANGO, PANGOCAIRO, RSVG, POPPLER, LIBRARY_COUNT };
static dr_shared_library libraries[LIBRARY_COUNT] = {
    [CAIRO] = DR_SHARED_LIBRARY("libcairo.so.2", "libcairo2"),
    [GLIB] = DR_SHARED_LIBRARY("libglib-2.0.so.0", "libglib2.0-0"),
    [GOBJECT] = DR_SHARED_LIBRARY("libgobject-2.0.so.0", "libglib2.0-0"),
    [PANGO] = DR_SHARED_LIBRARY("libpango-1.0.so.0", "libpango-1.0-0"),
    [PANGOCAIRO] = DR_SHARED_LIBRARY("libpangocairo-1.0.so.0", "libpangocairo-1.0-0"),
    [RSVG] = DR_SHARED_LIBRARY("librsvg-2.so.2", "librsvg2-2"),
    [POPPLER] = DR_SHARED_LIBRARY("libpoppler-glib.so.8", "libpoppler-glib8"),
};

/* load_CAIRO, load_GLIB, …: open one library and look up every function of its list. */
#define DR_LOADER(id, FUNCTIONS) DR_SHARED_LIBRARY_LOADER(load_##id, libraries[id], dr_fn, FUNCTIONS)
DR_LOADER(CAIRO, DR_CAIRO_FUNCTIONS)
DR_LOADER(GLIB, DR_GLIB_FUNCTIONS)
DR_LOADER(GOBJECT, DR_GOBJECT_FUNCTIONS)
DR_LOADER(PANGO, DR_PANGO_FUNCTIONS)
DR_LOADER(PANGOCAIRO, DR_PANGOCAIRO_FUNCTIONS)
DR_LOADER(RSVG, DR_RSVG_FUNCTIONS)
DR_LOADER(POPPLER, DR_POPPLER_FUNCTIONS)

/* librsvg runs its filter effects on rayon's pool, a thread per core unless RAYON_NUM_THREADS
   says otherwise, read when the pool starts: one worker (its caller waits on it), the decoder
   helper darkroom's thread budget allows (docs/architecture.md). A value the user set is kept. */
static void load_RSVG_bounded(void) {
    setenv("RAYON_NUM_THREADS", "1", 0);
    load_RSVG();
}

static void (*const loaders[LIBRARY_COUNT])(void) = {
    [CAIRO] = load_CAIRO, [GLIB] = load_GLIB, [GOBJECT] = load_GOBJECT,
    [PANGO] = load_PANGO, [PANGOCAIRO] = load_PANGOCAIRO, [RSVG] = load_RSVG_bounded, [POPPLER] = load_POPPLER,
};

/* Loads library `id` once per process (later calls cost one pthread_once check). */
static int load(int id, char *msg, size_t msg_size) {
    return dr_shared_library_load(&libraries[id], loaders[id], NULL, msg, msg_size);
}

int dr_draw_load(int needs, char *msg, size_t msg_size) {
    if (load(CAIRO, msg, msg_size)) return -1;
    if ((needs & (DR_NEEDS_PANGO | DR_NEEDS_RSVG | DR_NEEDS_POPPLER)) && (load(GLIB, msg, msg_size) || load(GOBJECT, msg, msg_size))) return -1;
    if ((needs & DR_NEEDS_PANGO) && (load(PANGO, msg, msg_size) || load(PANGOCAIRO, msg, msg_size))) return -1;
    if ((needs & DR_NEEDS_RSVG) && load(RSVG, msg, msg_size)) return -1;
    if ((needs & DR_NEEDS_POPPLER) && load(POPPLER, msg, msg_size)) return -1;
    return 0;
}
