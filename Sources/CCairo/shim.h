/* Through its directory, so that no -I/usr/include/cairo (pkg-config, which would link it) is needed. */
#include <cairo/cairo.h>
