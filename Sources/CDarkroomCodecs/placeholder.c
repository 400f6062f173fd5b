#include "darkroom_codecs.h"
int darkroom_codecs_placeholder(void) { return 0; }
