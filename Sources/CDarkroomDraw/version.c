#include "darkroom_draw.h"
#include <cairo.h>

const char *dr_draw_cairo_version(void) { return cairo_version_string(); }
