/*
 * Where an encoder's bytes go: a growable buffer in memory, or the output's temporary file,
 * written as the encoder makes them (JPEG and PNG through dr_sink, TIFF at its own offsets
 * through dr_write_at), so that an encoded file is never held in memory on its way to disk.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

int dr_write_at(int fd, uint64_t offset, const void *bytes, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t wrote = pwrite(fd, (const unsigned char *)bytes + done, n - done, (off_t)(offset + done));
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) {
            if (wrote == 0) errno = ENOSPC; /* a write that makes no progress: the device took nothing */
            return 0;
        }
        done += (size_t)wrote;
    }
    return 1;
}

void dr_sink_init(dr_sink *sink, dr_buffer *buffer, int to_file, int fd) {
    sink->buffer = buffer;
    sink->to_file = to_file != 0;
    sink->fd = fd;
    sink->length = 0;
}

dr_status dr_sink_put(dr_sink *sink, const void *bytes, size_t n, char *message, size_t capacity) {
    if (!sink->to_file) {
        if (dr_buffer_append(sink->buffer, bytes, n)) {
            sink->length += n;
            return DR_OK;
        }
        dr_set_message(message, capacity, "out of memory for the encoded file");
        return DR_OUT_OF_MEMORY;
    }
    if (!dr_write_at(sink->fd, sink->length, bytes, n)) {
        dr_set_message(message, capacity, "%s", strerror(errno));
        return DR_WRITE_FAILED;
    }
    sink->length += n;
    return DR_OK;
}
