#include "libraries.h"

const char *dr_draw_cairo_version(void) {
    return dr_draw_load(DR_NEEDS_CAIRO, NULL, 0) == 0 ? DR(cairo_version_string)() : NULL;
}
