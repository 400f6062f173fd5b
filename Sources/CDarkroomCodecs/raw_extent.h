#ifndef DARKROOM_RAW_EXTENT_H
#define DARKROOM_RAW_EXTENT_H

#include "internal.h"

/* DR_TRUNCATED (with the message) when a strip or tile of the DNG (read through `fd`, `length`
 * bytes long) runs past the end of the file, DR_CORRUPT when one starts beyond it (raw_extent.c). */
dr_status dr_raw_check_extent(int fd, uint64_t length, char *message, size_t capacity);

#endif
