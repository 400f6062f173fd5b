#ifndef DARKROOM_DRAW_H
#define DARKROOM_DRAW_H
/* darkroom's drawing shims over cairo, Pango and librsvg. Swift sees only these plain-C
   functions and structs: no GObject, no GError, no cairo_t lifetimes across the boundary. */

/* The cairo version string, e.g. "1.16.0" (for `darkroom --version` and the tests). */
const char *dr_draw_cairo_version(void);

#endif
