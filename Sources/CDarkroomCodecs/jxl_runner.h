#ifndef DARKROOM_JXL_RUNNER_H
#define DARKROOM_JXL_RUNNER_H

#include "internal.h"

#include <stdatomic.h>

#include <jxl/parallel_runner.h>

/* What a JPEG XL decoder or encoder runs its parallel stages on (jxl_runner.c): the compute
 * slots, and a deadline (0: none) after which stages stop and fail. */
typedef struct {
    uint64_t deadline_ns;
    atomic_int expired; /* a stage stopped for the deadline */
} dr_jxl_runner;

/* A JxlParallelRunner; its opaque pointer is a dr_jxl_runner. */
JxlParallelRetCode dr_jxl_run(void *runner_opaque, void *jpegxl_opaque, JxlParallelRunInit init,
                              JxlParallelRunFunction func, uint32_t start_range, uint32_t end_range);

#endif
